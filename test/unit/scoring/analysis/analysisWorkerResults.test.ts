/**
 * What the analysis worker sends for a file on disk, made from the analysis's columns a chunk at
 * a time: every rollout once, the lines the user sees first, then the rest in file order, each
 * summary the one the whole-text analysis makes (its objects); the Rollout View's texts and the
 * labels' keys the same too. Runs the built `dist/analysisWorker.js`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AnalysisClient } from '../../../../src/scoring/analysis/analysisClient';
import { analyseWithModel } from '../../../../src/scoring/analysis/modelAnalysis';
import { rolloutDetails } from '../../../../src/scoring/analysis/rolloutDetails';
import { labelKeysOf } from '../../../../src/scoring/labels/labelKeys';
import { ModelScorers } from '../../../../src/scoring/scorers/modelScorers';
import { summariseRollout, type AnalyseRequest, type RolloutSummary } from '../../../../src/protocol/analysis';

const ROOT = resolve(__dirname, '../../../..');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-worker-results-'));
const client = new AnalysisClient(join(ROOT, 'dist/analysisWorker.js'));
afterAll(() => {
  client.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** 990 rollouts (more than two chunks), grouped and flat lines, scored and not, some steps escaped. */
function dump(): string {
  const lines: string[] = [];
  for (let i = 0; lines.length < 900; i++) {
    const steps = Array.from({ length: 1 + (i % 5) }, (_, k) => `Step ${k + 1}: ${k} + ${i % 7} = ${k + (i % 7)}${k % 2 ? ' \\"so\\" \u00e9' : ''}.`);
    steps.push(`The answer is \\boxed{${i % 3}}.`);
    if (i % 10 === 9) lines.push(JSON.stringify({ problem: `Grouped ${i}?`, responses: [steps.join('\n\n'), 'No steps here'], answer: '1', score: [1, 0] }));
    else lines.push(JSON.stringify({ prompt: `Problem ${i >> 3}: ${i % 3}?`, response: steps.join('\n\n'), answer: String(i % 3), score: i % 2, uid: `u${i >> 3}`, ...(i % 4 ? { step_scores: steps.map((_, k) => ((k * 37 + i) % 100) / 100) } : {}) }));
  }
  return `${lines.join('\n')}\n`;
}

function request(path: string, priorityLines?: { from: number; to: number }): Omit<AnalyseRequest, 'type' | 'requestId'> {
  return { documentKey: `file://${path}`, fileName: path, source: { kind: 'path', path }, settings: {}, scorer: 'auto', model: null, ...(priorityLines ? { priorityLines } : {}) };
}

describe('the analysis worker on a file on disk', () => {
  const text = dump();
  const path = join(dir, 'dump.jsonl');
  writeFileSync(path, text);

  it('sends every summary once, the lines in view first, each as the whole-text analysis has it', async () => {
    const whole = await analyseWithModel(text, { fileName: path, settings: {}, scorer: 'auto', model: null, models: new ModelScorers(), signal: new AbortController().signal });
    const expected = whole.analysis.rollouts.map(summariseRollout);
    const chunks: RolloutSummary[][] = [];
    const view = { from: 500, to: 520 };
    const { rollouts, summary } = await client.analyse(request(path, view), { onChunk: (c) => chunks.push([...c]) }).result;
    const inView = (r: RolloutSummary): boolean => r.line >= view.from && r.line <= view.to;
    expect(chunks[0]!.length).toBeGreaterThan(0);
    expect(chunks[0]).toEqual(expected.filter(inView));
    expect(chunks.slice(1).flat()).toEqual(expected.filter((r) => !inView(r)));
    expect(chunks.slice(1).every((c) => c.length <= 400)).toBe(true);
    expect(rollouts).toHaveLength(expected.length);
    expect(summary.rolloutCount).toBe(expected.length);
    expect(summary.report).toEqual(whole.analysis.report);
    expect(summary.diagnostics).toEqual(whole.analysis.diagnostics);
    expect(expected.some((r) => r.rawSteps && r.rawSteps.length > 1)).toBe(true);

    // Without a view, file order.
    const plain = await client.analyse(request(path)).result;
    expect(plain.rollouts).toEqual(expected);

    // The Rollout View's texts (ids out of order, repeated, unknown), and the labels' keys.
    const ids = [expected.length - 1, 3, 3, 0, 517, expected.length + 5];
    expect(await client.details(`file://${path}`, ids)).toEqual(await rolloutDetails({ analysis: whole.analysis, disk: null }, ids));
    expect(await client.labelKeys(`file://${path}`, null)).toEqual(await labelKeysOf({ analysis: whole.analysis, disk: null }, null));
  });

  it('keeps its analysis as columns: reading a file does not make every rollout an object', async () => {
    const disk = await analyseWithModel({ kind: 'path', path }, { fileName: 'shown.jsonl', settings: {}, scorer: 'auto', model: null, models: new ModelScorers(), signal: new AbortController().signal });
    expect(disk.analysis.fileName).toBe('shown.jsonl');
    expect(Object.getOwnPropertyDescriptor(disk.analysis, 'rows')?.value?.count).toBe(990);
  });
});
