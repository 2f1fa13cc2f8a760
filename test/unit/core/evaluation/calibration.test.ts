/**
 * Calibration: the F1-best threshold over the intervals that change a prediction (the simplest
 * number in each), the lowest on a tie; a stratified seeded split for the held-out figure; the
 * flag's precision and recall; and which threshold an analysis uses, in words.
 */
import { describe, expect, it } from 'vitest';
import { bestThreshold, calibrate, candidateThresholds, simplestIn, splitInHalves } from '../../../../src/core/evaluation/calibration';
import { evaluateFirstError, type EvaluationItem } from '../../../../src/core/evaluation/firstError';
import { flagAgreement } from '../../../../src/core/evaluation/flagAgreement';
import { chooseThreshold, type Calibration } from '../../../../src/core/evaluation/thresholdChoice';
import { thresholdText } from '../../../../src/core/evaluation/thresholdWords';

const item = (stepScores: number[], firstErrorStep: number): EvaluationItem => ({ subset: 'all', stepScores, firstErrorStep });
const ITEMS = [
  item([0.9, 0.3], 1), item([0.25, 0.9], 0), item([0.9, 0.9, 0.4], 2),
  item([0.9, 0.9], -1), item([0.9, 0.35], -1), item([0.8], -1),
];

describe('the F1-best threshold', () => {
  it('tries the simplest number between consecutive running minima', () => {
    expect(simplestIn(0.3, 0.35)).toBe(0.31);
    expect(simplestIn(0.4, 0.8)).toBe(0.5);
    expect(simplestIn(0.12345, 0.12346)).toBe(0.12346);
    expect(candidateThresholds(ITEMS)).toEqual([0.2, 0.3, 0.31, 0.4, 0.5, 0.9, 1]);
  });

  it('picks 0.31: F1 0.8 (0.5 ties it; the lower wins)', () => {
    // 0.31: errors found 2 of 3 (E3's 0.4 is not below), correct passed 3 of 3 → F1 = 2·(2/3)·1 / (5/3) = 0.8.
    // 0.5: errors 3 of 3, correct 2 of 3 (0.35 flagged) → 0.8 as well.
    const best = bestThreshold(ITEMS);
    expect(best?.threshold).toBe(0.31);
    expect(best?.averageF1).toBeCloseTo(0.8, 12);
    expect(evaluateFirstError(ITEMS, 0.5).averageF1).toBeCloseTo(0.8, 12);
    expect(evaluateFirstError(ITEMS, 0.4).averageF1).toBeCloseTo(2 / 3, 12);
  });

  it('splits each kind of item in halves, seeded, and measures the held-out half at the other half’s threshold', () => {
    const { calibrate: a, measure: b } = splitInHalves(ITEMS, 7);
    expect([a.length, b.length]).toEqual([4, 2]);
    for (const half of [a, b]) expect(new Set(half.map((i) => i.firstErrorStep < 0)).size).toBe(2);
    expect(splitInHalves(ITEMS, 7)).toEqual({ calibrate: a, measure: b });
    const result = calibrate(ITEMS, 7)!;
    expect(result).toMatchObject({ threshold: 0.31, errorItems: 3, correctItems: 3 });
    expect(result.heldOut).toMatchObject({ seed: 7, calibratedOn: 4, measuredOn: 2 });
    expect(result.heldOut!.threshold).toBe(bestThreshold(a)!.threshold);
    expect(result.heldOut!.f1).toBe(evaluateFirstError(b, result.heldOut!.threshold).averageF1);
  });

  it('cannot calibrate on one kind of item, nor where no threshold finds a first error', () => {
    expect(calibrate(ITEMS.filter((i) => i.firstErrorStep >= 0), 0)).toBeNull();
    // Every threshold either flags nothing or flags step 0, never the wrong step 1: F1 0 throughout.
    expect(calibrate([item([0.9, 0.9], 1), item([0.9], -1)], 0)).toBeNull();
  });
});

describe('the flag against the labels', () => {
  it('precision: flawed among flagged; recall: flagged among flawed', () => {
    // At 0.5 every flawed one is flagged, and one sound one (0.35).
    expect(flagAgreement(ITEMS, 0.5)).toEqual({ threshold: 0.5, solutions: 6, flawed: 3, flagged: 4, flaggedFlawed: 3, precision: 0.75, recall: 1, f1: expect.closeTo(6 / 7, 12) });
    expect(flagAgreement(ITEMS, 0.1)).toMatchObject({ flagged: 0, precision: null, recall: 0, f1: null });
  });
});

describe('which threshold, in words', () => {
  const calibration: Calibration = {
    identity: 'onnx:abc', scorer: 'onnx qwen-prm (cpu)', threshold: 0.31, f1: 0.41,
    heldOut: { seed: 0, threshold: 0.3, calibratedOn: 80, measuredOn: 79, f1: 0.38 },
    set: { name: 'pb.json', size: 159, errorItems: 83, correctItems: 76 }, at: '',
  };
  const calibrations = new Map([['onnx:abc', calibration]]);

  it('given wins; then the calibration for this identity; else uncalibrated (the checker: its own default)', () => {
    const base = { given: null, fallback: 0.5, identity: 'onnx:abc', isChecker: false, calibrations };
    expect(thresholdText(chooseThreshold(base))).toBe('threshold 0.31, calibrated on 159 labelled solutions (pb.json): F1 0.41, held-out 0.38');
    expect(thresholdText(chooseThreshold({ ...base, given: 0.5 }))).toBe('threshold 0.5 (as given)');
    expect(thresholdText(chooseThreshold({ ...base, identity: 'onnx:other' }))).toBe('threshold 0.5 (uncalibrated)');
    expect(thresholdText(chooseThreshold({ ...base, identity: 'checker', isChecker: true }))).toBe('threshold 0.5');
  });
});
