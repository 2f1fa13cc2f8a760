/**
 * What the editor decides about labels before it touches a file: whether a sidecar may be written
 * back, what a hover offers, which command arguments are accepted, and the threshold in words.
 */
import { describe, expect, it } from 'vitest';
import { readLabels } from '../../../../src/core/labels/labelFile';
import { emptyLabelStore, serialiseLabels, withLabel } from '../../../../src/core/labels/labelStore';
import { isLabelCommandArgs } from '../../../../src/vscode/labels/labelArgs';
import { labelHoverLines } from '../../../../src/vscode/labels/labelHover';
import { sidecarState } from '../../../../src/vscode/labels/sidecarState';
import { shownThreshold } from '../../../../src/vscode/labels/thresholdShown';
import { DEFAULT_SETTINGS } from '../../../../src/core/profSettings';
import type { Calibration } from '../../../../src/core/evaluation/thresholdChoice';

const target = { prompt: 'What is 2 + 2?', response: 'We add.\n\n2 + 2 = 4', steps: ['We add.', '2 + 2 = 4'] };
const path = '/data/r.jsonl.prof-labels.json';

describe('whether a sidecar may be written back', () => {
  it('a missing sidecar is an empty, writable store', () => {
    const state = sidecarState(null, path);
    expect(state).toMatchObject({ exists: false, isWritable: true, problems: [] });
    expect(state.store.labels.size).toBe(0);
  });

  it('a sidecar read whole is writable', () => {
    const text = serialiseLabels(withLabel(emptyLabelStore(), target, 1));
    expect(sidecarState(readLabels(text, path), path)).toMatchObject({ exists: true, isWritable: true });
  });

  it('a sidecar with an entry that could not be read is left alone: rewriting it would lose that entry', () => {
    const text = JSON.stringify({ format: 'prof-lens-labels', version: 1, labels: [{ key: 'nope', firstWrongStep: 0, steps: 1 }] });
    const state = sidecarState(readLabels(text, path), path);
    expect(state.isWritable).toBe(false);
    expect(state.whyNotWritable).toMatch(/r\.jsonl\.prof-labels\.json holds what PROF Lens cannot read \(.*label 0: "key"/);
  });

  it('a newer version, or a file that is not a labels file, is left alone', () => {
    const newer = sidecarState(readLabels(JSON.stringify({ format: 'prof-lens-labels', version: 2, labels: [] }), path), path);
    expect(newer.isWritable).toBe(false);
    const other = sidecarState(readLabels('not json at all', path), path);
    expect(other.isWritable).toBe(false);
    expect(other.whyNotWritable).toMatch(/is not a PROF Lens labels file/);
  });
});

describe('the labels part of a hover', () => {
  const decode = (markdown: string): unknown[] => [...markdown.matchAll(/\(command:([\w.]+)\?([^)]*)\)/g)].map((m) => [m[1], JSON.parse(decodeURIComponent(m[2] ?? ''))]);

  it('on a step: marks that step (0-based in the argument, 1-based in the words) or the rollout as sound', () => {
    const lines = labelHoverLines({ source: 'file:///r.jsonl', rolloutId: 3, step: 1, badge: null, canLabel: true }).join('\n');
    expect(lines).toContain('Mark step 2 as First Wrong Step');
    expect(lines).not.toContain('Clear Label');
    expect(decode(lines)).toEqual([
      ['profLens.markFirstWrongStep', [{ source: 'file:///r.jsonl', rolloutId: 3, step: 1 }]],
      ['profLens.markRolloutSound', [{ source: 'file:///r.jsonl', rolloutId: 3 }]],
    ]);
  });

  it('on a labelled rollout: shows the badge and offers to clear it', () => {
    const lines = labelHoverLines({ source: 'file:///r.jsonl', rolloutId: 3, step: null, badge: 'labelled: first wrong step 2', canLabel: true }).join('\n');
    expect(lines).toContain('**labelled\\: first wrong step 2**');
    expect(lines).not.toContain('First Wrong Step');
    expect(decode(lines).map((d) => (d as unknown[])[0])).toEqual(['profLens.markRolloutSound', 'profLens.clearLabel']);
  });

  it('offers nothing for a file not on disk', () => {
    expect(labelHoverLines({ source: 'untitled:1', rolloutId: 0, step: 0, badge: null, canLabel: false })).toEqual([]);
  });
});

describe('a labelling command argument', () => {
  it('is accepted only as a rollout of a file, with a whole step index', () => {
    expect(isLabelCommandArgs({ source: 'file:///r.jsonl', rolloutId: 0 })).toBe(true);
    expect(isLabelCommandArgs({ source: 'file:///r.jsonl', rolloutId: 2, step: 0 })).toBe(true);
    for (const bad of [null, [], 'x', { source: 1, rolloutId: 0 }, { source: 'f', rolloutId: -1 }, { source: 'f', rolloutId: 1.5 }, { source: 'f', rolloutId: 0, step: -1 }, { source: 'f', rolloutId: 0, step: '1' }, { source: 'f'.repeat(20_000), rolloutId: 0 }]) {
      expect(isLabelCommandArgs(bad)).toBe(false);
    }
  });
});

describe('the threshold in words', () => {
  const summary = (kind: string) => ({ settings: { ...DEFAULT_SETTINGS, threshold: 0.5 }, scorer: { kind, label: kind } });
  it('says uncalibrated for scores from a file or a model, nothing more for the checker, and "as given" for the user\'s', () => {
    expect(shownThreshold({ summary: summary('file'), isGiven: false, scorers: ['file'] })).toBe('threshold 0.5 (uncalibrated)');
    // auto reports the checker as its scorer kind, but the rollouts were scored from the file.
    expect(shownThreshold({ summary: summary('checker'), isGiven: false, scorers: ['file', 'checker'] })).toBe('threshold 0.5 (uncalibrated)');
    expect(shownThreshold({ summary: summary('checker'), isGiven: false, scorers: ['checker'] })).toBe('threshold 0.5');
    expect(shownThreshold({ summary: summary('onnx'), isGiven: true, scorers: ['onnx'] })).toBe('threshold 0.5 (as given)');
  });

  it('repeats where the analysis says its threshold came from', () => {
    const calibration: Calibration = { identity: 'file:m', scorer: 'file', threshold: 0.31, f1: 0.41, heldOut: null, set: { name: 'pb.json', size: 159, errorItems: 83, correctItems: 76 }, at: '2026-12-01T00:00:00Z' };
    const text = shownThreshold({ summary: { ...summary('file'), threshold: { kind: 'calibrated', value: 0.31, calibration } }, isGiven: false, scorers: ['file'] });
    expect(text).toBe('threshold 0.31, calibrated on 159 labelled solutions (pb.json): F1 0.41');
  });
});
