/**
 * The editor's analyses use a calibrated threshold as the CLI does: the one `eval --calibrate`
 * stored for the scorer's identity, unless the user set one; and say where it came from.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Calibration } from '../../../../src/core/evaluation/thresholdChoice';
import { thresholdText } from '../../../../src/core/evaluation/thresholdWords';
import { analysisThreshold } from '../../../../src/scoring/calibration/analysisThreshold';
import { storeCalibration } from '../../../../src/scoring/calibration/calibrationStore';
import { analyseWithModel } from '../../../../src/scoring/analysis/modelAnalysis';
import { ModelScorers } from '../../../../src/scoring/scorers/modelScorers';

const record = (scores: number[]) => JSON.stringify({
  prompt: 'What is 2 + 2?', response: 'We add.\n\n2 + 2 = 4', answer: '4', step_scores: scores,
  step_scores_meta: { identity: 'onnx:abc123', model: 'prm' },
});
const text = `${record([0.9, 0.4])}\n`;

const calibration: Calibration = {
  identity: 'onnx:abc123', scorer: 'onnx prm', threshold: 0.31, f1: 0.41,
  heldOut: { seed: 0, threshold: 0.3, calibratedOn: 80, measuredOn: 79, f1: 0.38 },
  set: { name: 'pb.json', size: 159, errorItems: 83, correctItems: 76 }, at: '2026-12-01T00:00:00Z',
};

async function calibratedDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'prof-calibrations-'));
  await storeCalibration(dir, calibration);
  return dir;
}

const base = { source: { kind: 'text' as const, text }, fileName: 'r.jsonl', settings: { threshold: 0.5 }, scorer: 'auto' as const };

describe('the threshold of an editor analysis', () => {
  it('is the one calibrated for the identity the file\'s scores name', async () => {
    const chosen = await analysisThreshold({ ...base, isThresholdGiven: false, calibrationsDir: await calibratedDir() });
    expect(thresholdText(chosen)).toBe('threshold 0.31, calibrated on 159 labelled solutions (pb.json): F1 0.41, held-out 0.38');
  });

  it('is the user\'s when they set one, and uncalibrated (or the checker\'s own) when nothing is stored', async () => {
    const dir = await calibratedDir();
    expect(await analysisThreshold({ ...base, isThresholdGiven: true, calibrationsDir: dir })).toEqual({ kind: 'given', value: 0.5 });
    expect(await analysisThreshold({ ...base, isThresholdGiven: false, calibrationsDir: null })).toEqual({ kind: 'uncalibrated', value: 0.5 });
    expect(await analysisThreshold({ ...base, scorer: 'checker', isThresholdGiven: false, calibrationsDir: dir })).toEqual({ kind: 'default', value: 0.5 });
  });

  it('is the one the analysis runs with: a step at 0.4 is not low at the calibrated 0.31', async () => {
    const dir = await calibratedDir();
    const models = new ModelScorers();
    const result = await analyseWithModel(text, {
      ...base, model: null, models, signal: new AbortController().signal,
      chooseThreshold: (model) => analysisThreshold({ ...base, isThresholdGiven: false, calibrationsDir: dir, ...(model ? { model } : {}) }),
    });
    expect(result.threshold?.kind).toBe('calibrated');
    expect(result.analysis.settings.threshold).toBe(0.31);
    expect(result.analysis.rollouts[0]?.lowSteps).toEqual([]);
    const uncalibrated = await analyseWithModel(text, { ...base, model: null, models, signal: new AbortController().signal });
    expect(uncalibrated.analysis.rollouts[0]?.lowSteps).toEqual([1]);
  });
});
