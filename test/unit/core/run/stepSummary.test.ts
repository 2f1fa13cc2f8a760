import { describe, expect, it } from 'vitest';
import { histogramStats, mergeParts, type StepPart } from '../../../../src/core/run/stepSummary';
import { assembleRun, type FileSummary } from '../../../../src/core/run/runSummary';

function part(overrides: Partial<StepPart>): StepPart {
  return {
    step: 5, firstLine: 1, rollouts: 4, groups: 1, correct: 2, incorrect: 2, otherOutcomes: 0, allCorrectGroups: 0, allIncorrectGroups: 0,
    kept: 4, dropped: 0, notRanked: 0, byReason: { 'kept-small-group': 4 }, suspectedFalsePositives: 1, rankedCorrect: 2, penalised: 0,
    stepCounts: { 2: 4 }, responseChars: { total: 40, count: 4, p90: 10 }, auroc: 1, scoredRollouts: 4, scorers: { file: 4 },
    ...overrides,
  };
}

describe('histogram statistics (step counts H)', () => {
  it('mean, median (middle or mean of the two middle values) and nearest-rank p90', () => {
    // 1, 2×6, 3×4, 4: twelve values.
    expect(histogramStats({ 1: 1, 2: 6, 3: 4, 4: 1 })).toEqual({ mean: 29 / 12, median: 2, p90: 3 });
    // 1, 2, 2, 3, 4: the middle is the third value; p90 is the ⌈4.5⌉ = 5th.
    expect(histogramStats({ 4: 1, 2: 2, 1: 1, 3: 1 })).toEqual({ mean: 2.4, median: 2, p90: 4 });
    expect(histogramStats({ 3: 1, 8: 1 })).toEqual({ mean: 5.5, median: 5.5, p90: 8 });
  });

  it('is empty without values', () => {
    expect(histogramStats({})).toEqual({ mean: null, median: null, p90: null });
    expect(histogramStats({ 3: 0 })).toEqual({ mean: null, median: null, p90: null });
  });
});

describe('a step from its parts', () => {
  it('is the part itself, exactly, when the step lives in one file', () => {
    const s = mergeParts([{ file: 'a/5.jsonl', part: part({}) }]);
    expect(s).toMatchObject({ step: 5, rollouts: 4, accuracy: 0.5, stepsMean: 2, stepsMedian: 2, stepsP90: 2, responseCharsMean: 10, responseCharsP90: 10, auroc: 1, falsePositiveShare: 0.5 });
    expect(s.approximate).toBeUndefined();
    expect(s.sources).toEqual([{ file: 'a/5.jsonl', line: 1 }]);
  });

  it('adds counts and histograms exactly across files, and says which figures are weighted means', () => {
    const s = mergeParts([
      { file: 'a.jsonl', part: part({ firstLine: 9 }) },
      { file: 'b.jsonl', part: part({ rollouts: 2, correct: 0, incorrect: 2, byReason: { kept: 1, 'dropped-tie': 1 }, suspectedFalsePositives: 0, rankedCorrect: 0, stepCounts: { 6: 2 }, responseChars: { total: 100, count: 2, p90: 60 }, auroc: 0.25, scoredRollouts: 12, scorers: { checker: 2 } }) },
      { file: 'a.jsonl', part: part({ firstLine: 3, rollouts: 0, correct: 0, incorrect: 0, byReason: {}, stepCounts: {}, responseChars: { total: 0, count: 0, p90: null }, auroc: null, scoredRollouts: 0, scorers: {} }) },
    ]);
    expect(s.rollouts).toBe(6);
    expect(s.accuracy).toBeCloseTo(2 / 6);
    // Reason codes are carried whatever they are, ties included.
    expect(s.byReason).toEqual({ 'kept-small-group': 4, kept: 1, 'dropped-tie': 1 });
    expect(s.scorers).toEqual({ file: 4, checker: 2 });
    // H: 2,2,2,2,6,6 → mean 10/3, median 2, p90 the 6th value.
    expect(s.stepsMean).toBeCloseTo(10 / 3);
    expect(s.stepsMedian).toBe(2);
    expect(s.stepsP90).toBe(6);
    expect(s.responseCharsMean).toBe(140 / 6);
    // Weighted by the rollouts behind each figure; a part without one does not count.
    expect(s.auroc).toBeCloseTo((1 * 4 + 0.25 * 12) / 16);
    expect(s.responseCharsP90).toBeCloseTo((10 * 4 + 60 * 2) / 6);
    expect(s.approximate).toEqual(['auroc', 'responseCharsP90']);
    // Each file once, at the step's first line there.
    expect(s.sources).toEqual([{ file: 'a.jsonl', line: 3 }, { file: 'b.jsonl', line: 1 }]);
  });
});

describe('a run from its files', () => {
  const file = (name: string, parts: StepPart[], extra: Partial<FileSummary> = {}): FileSummary => ({ file: name, size: 1, mtimeMs: 1, parts, unstepped: 0, unreadableLines: 0, problems: [], ...extra });

  it('lists steps in ascending order and merges a step found in two files', () => {
    const run = assembleRun('run', [file('30.jsonl', [part({ step: 30 })]), file('mixed.jsonl', [part({ step: 40 }), part({ step: 10 }), part({ step: 30 })])]);
    expect(run.steps.map((s) => [s.step, s.rollouts])).toEqual([[10, 4], [30, 8], [40, 4]]);
    expect(run.files).toBe(2);
  });

  it('names every file with a problem, and why', () => {
    const run = assembleRun('run', [
      file('1.jsonl', [part({ step: 1 })]),
      file('2.jsonl', [], { error: 'the file is empty' }),
      file('notes.jsonl', [], { unstepped: 3 }),
      file('3.jsonl', [part({ step: 3 })], { problems: ['line 4: expected one JSON object per line: …'] }),
    ]);
    expect(run.steps.map((s) => s.step)).toEqual([1, 3]);
    expect(run.problems).toEqual([
      { file: '2.jsonl', message: 'the file is empty' },
      { file: 'notes.jsonl', message: expect.stringMatching(/^3 records name no training step: expected a "step" or "global_step" field, or a number in the file's name/) },
      { file: '3.jsonl', message: 'line 4: expected one JSON object per line: …' },
    ]);
  });
});
