/**
 * The label store: keyed by the content of prompt and response (a reorder, a re-dump with other
 * whitespace or line ends keep every label), the wrong step found by its text, the sidecar read as
 * untrusted input (a malformed entry named and left out), and the ProcessBench export.
 */
import { describe, expect, it } from 'vitest';
import { rolloutKey, stepKey } from '../../../../src/core/labels/contentKey';
import { readLabels } from '../../../../src/core/labels/labelFile';
import { exportProcessBench, matchLabel } from '../../../../src/core/labels/labelMatch';
import { emptyLabelStore, serialiseLabels, sidecarPath, withLabel, withoutLabel } from '../../../../src/core/labels/labelStore';

const a = { prompt: 'What is 2 + 3?', response: '2 + 3 = 6.\n\nSo 6.', steps: ['2 + 3 = 6.', 'So 6.'] };
const b = { prompt: 'What is 4 × 5?', response: '4 × 5 = 20.\n\nSo 20.', steps: ['4 × 5 = 20.', 'So 20.'] };

describe('content keys', () => {
  it('ignore whitespace runs and line ends, not words', () => {
    expect(rolloutKey(a.prompt, a.response)).toMatch(/^c1:[0-9a-f]{16}$/);
    expect(rolloutKey(` ${a.prompt}\r\n`, '2 + 3 = 6.\r\n\r\n\r\nSo  6. ')).toBe(rolloutKey(a.prompt, a.response));
    expect(rolloutKey(a.prompt, a.steps.join('\n'))).toBe(rolloutKey(a.prompt, a.response));
    expect(rolloutKey(a.prompt, '2 + 3 = 6. So 7.')).not.toBe(rolloutKey(a.prompt, a.response));
    // The boundary between prompt and response counts.
    expect(rolloutKey('ab', 'c')).not.toBe(rolloutKey('a', 'bc'));
    expect(stepKey(' So 6. ')).toBe(stepKey('So 6.'));
  });
});

describe('the label store', () => {
  it('labels, relabels and clears by content; the sidecar sits beside the dump', () => {
    let store = withLabel(emptyLabelStore(), a, 0, '2025-01-01T00:00:00Z');
    store = withLabel(store, b, -1);
    expect(matchLabel(store, a)).toMatchObject({ kind: 'labelled', firstWrongStep: 0 });
    expect(matchLabel(store, { ...b, response: '4 × 5 = 20.\r\n\r\nSo 20.' })).toMatchObject({ kind: 'labelled', firstWrongStep: -1 });
    store = withLabel(store, a, 1);
    expect(matchLabel(store, a)).toMatchObject({ kind: 'labelled', firstWrongStep: 1 });
    store = withoutLabel(store, a);
    expect(matchLabel(store, a)).toEqual({ kind: 'none' });
    expect(() => withLabel(store, a, 2)).toThrow(RangeError);
    expect(sidecarPath('/runs/12.jsonl')).toBe('/runs/12.jsonl.prof-labels.json');
  });

  it('finds the wrong step by its text when the split changed, and says when it cannot', () => {
    const store = withLabel(emptyLabelStore(), a, 1);
    // Split into three now: "So 6." is step 2.
    const resplit = { ...a, steps: ['2 + 3', '= 6.', 'So 6.'] };
    expect(matchLabel(store, resplit)).toMatchObject({ kind: 'labelled', firstWrongStep: 2 });
    const merged = { ...a, steps: ['2 + 3 = 6. So 6.'] };
    const stale = matchLabel(store, merged);
    expect(stale.kind).toBe('stale');
    expect(stale.kind === 'stale' && stale.reason).toBe('the labelled step 2 of 2 is not a step of this rollout as it is split now (1 steps); the label is not used');
  });

  it('writes a versioned sidecar that reads back the same, sorted by key', () => {
    const store = withLabel(withLabel(emptyLabelStore(), b, -1), a, 0);
    const text = serialiseLabels(store);
    const parsed = JSON.parse(text);
    expect(parsed.format).toBe('prof-lens-labels');
    expect(parsed.version).toBe(1);
    expect(parsed.labels.map((l: { key: string }) => l.key)).toEqual([...parsed.labels.map((l: { key: string }) => l.key)].sort());
    const read = readLabels(text, 'x.prof-labels.json');
    expect(read).toMatchObject({ kind: 'sidecar', problems: [] });
    expect([...read.store.labels.values()]).toEqual([...store.labels.values()].sort((x, y) => (x.key < y.key ? -1 : 1)));
  });
});

describe('reading a labels file (untrusted)', () => {
  it('names each malformed sidecar entry and keeps the rest', () => {
    const good = [...withLabel(emptyLabelStore(), a, 0).labels.values()][0];
    const text = JSON.stringify({
      format: 'prof-lens-labels', version: 1,
      labels: [good, 'nope', { ...good, key: 'c1:zz' }, { ...good, firstWrongStep: 7 }, { ...good, firstWrongStep: -1 }, { ...good, key: 'c1:0123456789abcdef', firstWrongStep: -1, stepKey: null }],
    });
    const read = readLabels(text, 'l.json');
    expect(read.store.labels.size).toBe(2);
    expect(read.problems).toEqual([
      'l.json: label 1: expected an object; left out',
      'l.json: label 2: "key" "c1:zz" is not a content key (c1: and 16 hex digits); left out',
      'l.json: label 3: "firstWrongStep" must be −1 (sound) or a step index below 2, got 7; left out',
      `l.json: label 4: "stepKey" "${good!.stepKey}" does not fit firstWrongStep -1; left out`,
    ]);
  });

  it('refuses a newer version or another format as a whole, with the reason', () => {
    expect(readLabels('{"format":"prof-lens-labels","version":2,"labels":[]}', 'l.json').problems).toEqual(['l.json: version 2 is not one this PROF Lens reads (it reads 1); no label was read from it']);
    expect(readLabels('{"format":"other"}', 'l.json').problems[0]).toContain('"format" is "other", expected "prof-lens-labels"');
    const junk = readLabels('this is not json', 'l.json');
    expect(junk.kind).toBe('unknown');
    expect(junk.store.labels.size).toBe(0);
  });

  it('reads ProcessBench-shaped items (array or JSONL), naming bad items by index', () => {
    const items = [
      { problem: a.prompt, steps: a.steps, label: 0, final_answer_correct: false },
      { problem: b.prompt, steps: b.steps, label: 5 },
      { problem: b.prompt, steps: b.steps, label: -1 },
    ];
    const read = readLabels(JSON.stringify(items), 'pb.json');
    expect(read.kind).toBe('processbench');
    expect(matchLabel(read.store, a)).toMatchObject({ kind: 'labelled', firstWrongStep: 0 });
    expect(matchLabel(read.store, b)).toMatchObject({ kind: 'labelled', firstWrongStep: -1 });
    expect(read.problems).toEqual(['pb.json: item 1 (line 1): "label" must be −1 (no error) or the index of a step (below 2), got 5; left out']);
    const jsonl = readLabels(items.map((i) => JSON.stringify(i)).join('\n'), 'pb.jsonl');
    expect(jsonl.problems[0]).toContain('pb.jsonl: line 2:');
  });
});

describe('export', () => {
  it('writes ProcessBench-shaped items that read back as the same labels', () => {
    const store = withLabel(withLabel(emptyLabelStore(), a, 0), b, -1);
    const rollouts = [
      { ...b, outcome: { kind: 'correct' as const }, id: 'd.jsonl:2:0' },
      { prompt: 'unlabelled', response: 'x', steps: ['x'], outcome: { kind: 'incorrect' as const }, id: 'd.jsonl:3:0' },
      { ...a, outcome: { kind: 'incorrect' as const }, id: 'd.jsonl:1:0' },
    ];
    const items = exportProcessBench(store, rollouts);
    expect(items).toEqual([
      { id: 'd.jsonl:2:0', problem: b.prompt, steps: b.steps, label: -1, final_answer_correct: true },
      { id: 'd.jsonl:1:0', problem: a.prompt, steps: a.steps, label: 0, final_answer_correct: false },
    ]);
    const back = readLabels(JSON.stringify(items), 'export.json');
    expect([...back.store.labels.keys()].sort()).toEqual([...store.labels.keys()].sort());
  });
});
