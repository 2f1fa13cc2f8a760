/**
 * Facts about a rollout's step scores that every surface shows: which steps are low, the weakest
 * step, the mean and minimum. Derived once, where the analysis runs, and carried in the summaries.
 */

/** No low steps: one shared, frozen array (most rollouts have none). */
export const NO_LOW_STEPS: readonly number[] = Object.freeze([]);

/** Whether a step score is below the low-score threshold (an unscored step never is). */
export function isLowScore(score: number | null | undefined, threshold: number): boolean {
  return typeof score === 'number' && Number.isFinite(score) && score < threshold;
}

/** 0-based indices of the steps scoring below the threshold, in order. */
export function lowStepsOf(scores: readonly (number | null)[] | null, threshold: number): number[] {
  if (!scores) return NO_LOW_STEPS as number[];
  let low: number[] | null = null;
  for (let i = 0; i < scores.length; i++) if (isLowScore(scores[i], threshold)) (low ??= []).push(i);
  return low ?? (NO_LOW_STEPS as number[]);
}

/** The weakest scored step: its 0-based index and score (the first of equals), or null. */
export function weakestStepOf(scores: readonly (number | null)[] | null): { step: number; score: number } | null {
  if (!scores) return null;
  // One object for the answer, not one per new minimum: this runs for every rollout of a dump.
  let step = -1;
  let weakest = 0;
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i];
    if (typeof score === 'number' && Number.isFinite(score) && (step === -1 || score < weakest)) {
      step = i;
      weakest = score;
    }
  }
  return step === -1 ? null : { step, score: weakest };
}

/** Mean and minimum of the scored steps; nulls when there are none. */
export function scoreSummary(scores: readonly (number | null)[] | null): { mean: number | null; min: number | null } {
  // One pass, no list made: the explorer asks this of every rollout of a dump.
  let sum = 0;
  let count = 0;
  let min = Infinity;
  for (const s of scores ?? []) {
    if (s === null || !Number.isFinite(s)) continue;
    sum += s;
    count++;
    if (s < min) min = s;
  }
  return count === 0 ? { mean: null, min: null } : { mean: sum / count, min };
}
