/**
 * Calibrating the low-score threshold of one scorer on labelled items: the threshold with the best
 * ProcessBench F1 over all the items together (a file holding one kind of item still counts), and,
 * against flattery, the F1 of a seeded split: the threshold chosen on one half and measured on the
 * other.
 */
import { hashString, mulberry32 } from '../rules/random';
import { evaluateFirstError, type EvaluationItem, type EvaluationReport } from './firstError';

/** Thresholds tried at most: the distinct values are thinned beyond this many. */
const MAX_CANDIDATES = 1000;

/**
 * The thresholds worth trying: one per interval between consecutive distinct running minima of the
 * items' step scores (every threshold inside an interval makes the same predictions), the simplest
 * number in it (`0.31` rather than `0.3127`), and one below and one above them all.
 */
export function candidateThresholds(items: readonly EvaluationItem[]): number[] {
  const values = new Set<number>();
  for (const item of items) {
    if (item.isUnscored) continue;
    let min = Infinity;
    for (const s of item.stepScores) {
      if (s === null || !Number.isFinite(s) || s >= min) continue;
      min = s;
      values.add(s);
    }
  }
  let sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return [];
  if (sorted.length > MAX_CANDIDATES) {
    const every = Math.ceil(sorted.length / MAX_CANDIDATES);
    sorted = sorted.filter((_, i) => i % every === 0 || i === sorted.length - 1);
  }
  const first = sorted[0] as number;
  const last = sorted[sorted.length - 1] as number;
  const out = [Math.floor(first * 10) / 10];
  for (let i = 1; i < sorted.length; i++) out.push(simplestIn(sorted[i - 1] as number, sorted[i] as number));
  out.push(simplestIn(last, last + 1));
  return out;
}

/** The number with the fewest decimals in (lo, hi]. */
export function simplestIn(lo: number, hi: number): number {
  for (let decimals = 0; decimals <= 12; decimals++) {
    const f = 10 ** decimals;
    const t = (Math.floor(lo * f) + 1) / f;
    if (t > lo && t <= hi) return t;
  }
  return hi;
}

/** The report at the threshold with the best average F1 (the lowest such threshold on a tie); null when no F1 is defined. */
export function bestThreshold(items: readonly EvaluationItem[]): EvaluationReport | null {
  let best: EvaluationReport | null = null;
  for (const threshold of candidateThresholds(items)) {
    const report = evaluateFirstError(items, threshold);
    if (report.averageF1 === null) continue;
    if (best === null || report.averageF1 > (best.averageF1 as number) + 1e-12) best = report;
  }
  return best;
}

/**
 * Two halves for the held-out figure, stratified: within each subset the items with an error and
 * those without are shuffled (seeded) and dealt alternately, so both halves keep the mix.
 */
export function splitInHalves(items: readonly EvaluationItem[], seed: number): { calibrate: EvaluationItem[]; measure: EvaluationItem[] } {
  const calibrate: EvaluationItem[] = [];
  const measure: EvaluationItem[] = [];
  const strata = new Map<string, EvaluationItem[]>();
  for (const item of items) {
    const key = `${item.subset}\u0000${item.firstErrorStep < 0 ? 'correct' : 'error'}`;
    (strata.get(key) ?? strata.set(key, []).get(key)!).push(item);
  }
  for (const [key, list] of strata) {
    const next = mulberry32(hashString(`${seed}\u0000${key}`));
    const shuffled = [...list];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j] as EvaluationItem, shuffled[i] as EvaluationItem];
    }
    shuffled.forEach((item, i) => (i % 2 === 0 ? calibrate : measure).push(item));
  }
  return { calibrate, measure };
}

/** What a calibration found. */
export interface CalibrationResult {
  threshold: number;
  /** Average F1 on all the items at that threshold (chosen on them, so flattering). */
  f1: number;
  /** The split: the threshold chosen on one half, its F1 on the other; null when a half has no F1. */
  heldOut: { seed: number; threshold: number; calibratedOn: number; measuredOn: number; f1: number | null } | null;
  errorItems: number;
  correctItems: number;
}

/**
 * Calibrate on `items` (pooled into one set); null when no threshold has an F1 above 0 (items of
 * one kind only, nothing scored, or no threshold that finds any first error: nothing to store).
 */
export function calibrate(labelled: readonly EvaluationItem[], seed: number): CalibrationResult | null {
  const items = labelled.map((item) => ({ ...item, subset: 'all' }));
  const best = bestThreshold(items);
  if (!best || !(best.averageF1! > 0)) return null;
  const errorItems = items.filter((i) => i.firstErrorStep >= 0).length;
  const { calibrate: a, measure: b } = splitInHalves(items, seed);
  const onA = bestThreshold(a);
  const heldOut = onA ? { seed, threshold: onA.threshold, calibratedOn: a.length, measuredOn: b.length, f1: evaluateFirstError(b, onA.threshold).averageF1 } : null;
  return { threshold: best.threshold, f1: best.averageF1 as number, heldOut, errorItems, correctItems: items.length - errorItems };
}
