/**
 * The change-point rule every detector uses (docs/health.md): a one-sided CUSUM against a
 * baseline taken from the run's first steps.
 *
 * - baseline: the first B = clamp(⌊n/3⌋, 3, 10) steps with a value; mean μ₀, standard deviation σ₀;
 * - the shift worth an alarm: δ = max(minimum effect, 3σ₀) (the minimum effect is the detector's,
 *   absolute, or a share of μ₀ for a relative one), so noise alone does not raise one;
 * - S₀ = 0, Sₜ = max(0, Sₜ₋₁ + d·(xₜ − μ₀) − δ/2) for the steps after the baseline (d = +1 for a
 *   rise, −1 for a fall); the alarm is the first step with Sₜ > 2δ;
 * - the onset is the step after the last one at which S was 0 before the alarm;
 * - it stands only if it lasts: the median of the (up to) 5 steps from the onset on, at least 2 of
 *   them, is shifted by δ or more; otherwise (a spike) S restarts from 0 after the alarm and the scan goes on.
 * A run of fewer than 6 steps gets no onset; a shift that begins inside the baseline is not seen.
 */

export interface OnsetRule {
  direction: 'up' | 'down';
  /** The smallest shift that matters: absolute, or a share of the baseline when `relative`. */
  minEffect: number;
  relative?: boolean;
}

export interface Onset {
  /** Position in the series of the first step of the shift. */
  at: number;
  baseline: number;
  /** Median of the (up to) 5 steps from the onset on. */
  after: number;
  /** The shift that counted as one (δ). */
  delta: number;
}

export const MIN_STEPS = 6;
const MIN_AFTER = 2;
/** Steps from the onset on whose median must hold the shift. */
const LASTING = 5;

function meanOf(values: readonly number[]): number {
  let t = 0;
  for (const v of values) t += v;
  return t / values.length;
}

function deviationOf(values: readonly number[], mean: number): number {
  if (values.length < 2) return 0;
  let t = 0;
  for (const v of values) t += (v - mean) ** 2;
  return Math.sqrt(t / (values.length - 1));
}

/** The onset of a lasting shift in `series` (null entries are steps without the value), or null. */
export function findOnset(series: readonly (number | null)[], rule: OnsetRule): Onset | null {
  const at: number[] = [];
  const x: number[] = [];
  series.forEach((v, i) => void (v !== null && Number.isFinite(v) && (at.push(i), x.push(v))));
  if (x.length < MIN_STEPS) return null;
  const b = Math.max(3, Math.min(10, Math.floor(x.length / 3)));
  const base = x.slice(0, b);
  const mu = meanOf(base);
  const minEffect = rule.relative ? rule.minEffect * Math.abs(mu) : rule.minEffect;
  const delta = Math.max(minEffect, 3 * deviationOf(base, mu), Number.EPSILON);
  const d = rule.direction === 'up' ? 1 : -1;
  let s = 0;
  let lastZero = b - 1;
  for (let t = b; t < x.length; t++) {
    s = Math.max(0, s + d * (x[t]! - mu) - delta / 2);
    if (s === 0) lastZero = t;
    if (s <= 2 * delta) continue;
    const start = lastZero + 1;
    const rest = x.slice(start, start + LASTING);
    const after = medianOf(rest);
    if (rest.length >= MIN_AFTER && d * (after - mu) >= delta) return { at: at[start]!, baseline: mu, after, delta };
    // A shift that does not last (a spike) is no onset: look on from the step after it.
    s = 0;
    lastZero = t;
  }
  return null;
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
