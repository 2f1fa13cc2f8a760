/**
 * PROF's arithmetic, as docs/prof-semantics.md states it: the aggregate of step scores, the step-count
 * penalty, consistency, Python's round half to even and the stable sort of the tie-breaks. The
 * filter that uses them is `rules/prof.ts`; the panels and words read the same figures from here.
 */
import type { Aggregate, PenaltyRule, ProfSettings } from '../profSettings';

/** What the filter needs to know about one rollout. */
export interface RankInput {
  /** File-order id; ties are broken by it (earlier removed first). */
  id: number;
  /** true / false, or null when the outcome is unknown; `nonBinary` marks a non-binary reward. */
  correct: boolean | null;
  nonBinary?: boolean;
  /** Step scores; null when no scorer could score the rollout. Null entries are unscored steps. */
  scores: readonly (number | null)[] | null;
  /** What rules other than PROF read (docs/curation-rules.md); absent: the rollout does not say. */
  signals?: RowSignals;
}

/** A rollout's figures beside its outcome and step scores that some curation rules read. */
export interface RowSignals {
  /** The file's reward value (a number or a boolean), when it gives one. */
  reward?: number | boolean | null;
  /** The response's length in characters. */
  chars?: number;
  /** The dump's `is_flawed_positive`, or true when it names a first wrong step; null when it says nothing. */
  flawed?: boolean | null;
  /** The response text, when it is at hand. */
  text?: string | null;
}

export type FilterSettings = Pick<ProfSettings, 'm' | 'remove' | 'variant' | 'seed' | 'penalty' | 'lambda' | 'maxSteps' | 'aggregate'>;

/** Aggregate step scores; unscored (null) steps are left out; no numbers → 0. */
export function aggregateScores(scores: readonly (number | null)[], how: Aggregate): number {
  let sum = 0;
  let min = Infinity;
  let count = 0;
  for (const s of scores) {
    if (s === null || !Number.isFinite(s)) continue;
    sum += s;
    if (s < min) min = s;
    count++;
  }
  if (count === 0) return 0;
  if (how === 'sum') return sum;
  if (how === 'min') return min;
  return sum / count;
}

/** The reference code's fixed upper limit: H above it is penalised, whatever Hλ says. */
export const REFERENCE_MAX_STEPS = 30;

/** The step counts a rule penalises: H ≤ `shortest`, and H ≥ `longest`. */
export interface PenaltyBounds {
  shortest: number;
  longest: number;
}

/** Where the penalty starts under `rule`: card H ≤ 1 or H ≥ Hλ; reference H < 2 or H > 30. */
export function penaltyBounds(rule: PenaltyRule, maxSteps: number): PenaltyBounds {
  return { shortest: 1, longest: rule === 'reference' ? REFERENCE_MAX_STEPS + 1 : maxSteps };
}

/** Whether H steps draw the step-count penalty under `rule` (the bounds of `penaltyBounds`, without an object per rollout). */
export function isPenalised(steps: number, rule: PenaltyRule, maxSteps: number): boolean {
  return steps <= 1 || steps >= (rule === 'reference' ? REFERENCE_MAX_STEPS + 1 : maxSteps);
}

/** Consistencies closer than this are equal: PROF's order between them is file order, not evidence. */
export const TIE_TOLERANCE = 1e-9;

/** consistency = sign · agg − λ · penalised(H). */
export function consistencyOf(correct: boolean, scores: readonly (number | null)[], s: FilterSettings): { score: number; consistency: number; penalised: boolean } {
  const score = aggregateScores(scores, s.aggregate);
  const penalised = isPenalised(scores.length, s.penalty, s.maxSteps);
  return { score, consistency: (correct ? score : -score) - (penalised ? s.lambda : 0), penalised };
}

/** Python's round(): halves go to the even neighbour. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** Below this length `stableSort` sorts by insertion. */
const INSERTION_SORT_MAX = 32;

/**
 * `list.sort(compare)` (stable, in place, the same order), without the work arrays the built-in
 * sort allocates on every call: a group of eight is sorted two or three times per group of a dump.
 * Long lists go to the built-in sort.
 */
export function stableSort<T>(list: T[], compare: (a: T, b: T) => number): T[] {
  if (list.length > INSERTION_SORT_MAX) return list.sort(compare);
  for (let i = 1; i < list.length; i++) {
    const item = list[i] as T;
    let j = i - 1;
    // Moves past only the items that sort strictly after it: equal items keep their order.
    while (j >= 0 && compare(list[j] as T, item) > 0) {
      list[j + 1] = list[j] as T;
      j--;
    }
    list[j + 1] = item;
  }
  return list;
}
