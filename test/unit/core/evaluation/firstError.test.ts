import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THRESHOLDS, evaluateFirstError, harmonicF1, predictFirstError, sweepThresholds, type EvaluationItem,
} from '../../../../src/core/evaluation/firstError';

/** Hand-made items; the expected figures below are worked out by hand at threshold 0.5. */
const ITEMS: EvaluationItem[] = [
  { subset: 'A', stepScores: [0.9, 0.2, 0.1], firstErrorStep: 1 }, // predicted 1: hit
  { subset: 'A', stepScores: [0.9, 0.8, 0.3], firstErrorStep: 1 }, // predicted 2: flagged, too late
  { subset: 'A', stepScores: [0.9, 0.9], firstErrorStep: 0 }, // predicted −1: missed
  { subset: 'A', stepScores: [0.9, null, 0.6], firstErrorStep: -1 }, // an unscored step is no error
  { subset: 'A', stepScores: [0.4, 0.9], firstErrorStep: -1 }, // false alarm
  { subset: 'B', stepScores: [0.1], firstErrorStep: 0 },
  { subset: 'B', stepScores: [0.7, 0.7], firstErrorStep: -1 },
  { subset: 'C', stepScores: [0.9], firstErrorStep: -1 }, // no error items: F1 undefined
];

describe('first-error evaluation', () => {
  it('predicts the first step strictly below the threshold, skipping unscored steps', () => {
    expect(predictFirstError([0.9, null, 0.3, 0.1], 0.5)).toBe(2);
    expect(predictFirstError([0.5, 0.7], 0.5)).toBe(-1);
    expect(predictFirstError([], 0.5)).toBe(-1);
  });

  it('computes ProcessBench F1 as the harmonic mean of the two accuracies', () => {
    expect(harmonicF1(1 / 3, 1 / 2)).toBeCloseTo(0.4, 12);
    expect(harmonicF1(0, 0)).toBe(0);
    expect(harmonicF1(1, 1)).toBe(1);
  });

  it('reports per-subset accuracies, counts and F1, and the mean F1 over defined subsets', () => {
    const report = evaluateFirstError(ITEMS, 0.5);
    expect(report.subsets.map((s) => s.subset)).toEqual(['A', 'B', 'C']);
    const [a, b, c] = report.subsets;
    expect(a).toMatchObject({ errorItems: 3, errorHits: 1, errorFlagged: 2, correctItems: 2, correctHits: 1 });
    expect(a?.errorAccuracy).toBeCloseTo(1 / 3, 12);
    expect(a?.correctAccuracy).toBe(0.5);
    expect(a?.f1).toBeCloseTo(0.4, 12);
    expect(b).toMatchObject({ errorAccuracy: 1, correctAccuracy: 1, f1: 1 });
    expect(c).toMatchObject({ errorItems: 0, correctItems: 1, errorAccuracy: null, correctAccuracy: 1, f1: null });
    expect(report.averageF1).toBeCloseTo(0.7, 12);
  });

  it('has no average when no subset has both kinds of item', () => {
    expect(evaluateFirstError([{ subset: 'x', stepScores: [0.1], firstErrorStep: 0 }], 0.5).averageF1).toBeNull();
    expect(evaluateFirstError([], 0.5)).toEqual({ threshold: 0.5, subsets: [], averageF1: null });
  });

  it('sweeps 0.05..0.95 and picks the lowest threshold with the best average F1', () => {
    expect(DEFAULT_THRESHOLDS).toHaveLength(19);
    expect(DEFAULT_THRESHOLDS[0]).toBe(0.05);
    expect(DEFAULT_THRESHOLDS[18]).toBe(0.95);
    const sweep = sweepThresholds(ITEMS);
    expect(sweep.reports).toHaveLength(19);
    // 0.25, 0.30, 0.35 and 0.40 all reach (0.5 + 1) / 2 = 0.75; 0.15 and 0.20 only 0.5.
    expect(sweep.best?.threshold).toBe(0.25);
    expect(sweep.best?.averageF1).toBeCloseTo(0.75, 12);
    const at = (t: number): number | null | undefined => sweep.reports.find((r) => r.threshold === t)?.averageF1;
    expect(at(0.05)).toBe(0);
    expect(at(0.15)).toBeCloseTo(0.5, 12);
    expect(at(0.4)).toBeCloseTo(0.75, 12);
    expect(at(0.45)).toBeCloseTo(0.7, 12);
  });

  it('accepts a custom grid and returns no best when nothing is defined', () => {
    expect(sweepThresholds(ITEMS, [0.5]).best?.threshold).toBe(0.5);
    expect(sweepThresholds([{ subset: 'x', stepScores: [], firstErrorStep: -1 }]).best).toBeNull();
  });
});
