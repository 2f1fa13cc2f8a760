/**
 * The PROF group filter, exactly as docs/prof-semantics.md states it: consistency scores, the step-count
 * penalty, the balanced split between correct and incorrect rollouts (round half to even), stable
 * tie-breaks in file order, and a reason code on every rollout.
 */
import type { Decision, ReasonCode } from './model';
import type { Aggregate, PenaltyRule, ProfSettings } from './profSettings';
import { seededSample } from './random';

/** What the filter needs to know about one rollout. */
export interface RankInput {
  /** File-order id; ties are broken by it (earlier removed first). */
  id: number;
  /** true / false, or null when the outcome is unknown; `nonBinary` marks a non-binary reward. */
  correct: boolean | null;
  nonBinary?: boolean;
  /** Step scores; null when no scorer could score the rollout. Null entries are unscored steps. */
  scores: readonly (number | null)[] | null;
}

type FilterSettings = Pick<ProfSettings, 'm' | 'remove' | 'variant' | 'seed' | 'penalty' | 'lambda' | 'maxSteps' | 'aggregate'>;

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

interface Ranked {
  id: number;
  /** Position in the group's input: where its decision goes. */
  at: number;
  correct: boolean;
  steps: number;
  score: number;
  consistency: number;
  penalised: boolean;
}

/**
 * Decide one group. Returns one decision per input, in input order. `groupKey` seeds the POS
 * variant's random draw so that a group's decision does not depend on the other groups.
 */
export function decideGroup(members: readonly RankInput[], settings: FilterSettings, groupKey = ''): Decision[] {
  // Decisions by position (ids are file-order ids, distinct within a group); this runs once per
  // group of every dump, so no map, spread or filtered copy per rollout.
  const decisions = new Array<Decision>(members.length);
  const correct: Ranked[] = [];
  const incorrect: Ranked[] = [];
  for (let at = 0; at < members.length; at++) {
    const m = members[at] as RankInput;
    const notRanked = notRankedReason(m);
    if (notRanked) decisions[at] = unranked(m, notRanked);
    else (m.correct ? correct : incorrect).push(rankedOf(m, at, settings));
  }
  sortByConsistency(correct);
  sortByConsistency(incorrect);
  const removed: Removals = new Array<ReasonCode | undefined>(members.length);
  chooseRemoved(correct, incorrect, settings, groupKey, removed);
  const removeCount = removalCount(correct.length + incorrect.length, settings);
  decideClass(correct, removed, removeCount, decisions);
  decideClass(incorrect, removed, removeCount, decisions);
  return decisions;
}

/** Why each member of a group was removed (the reason before penalty refinement), by its position in the group. */
type Removals = (ReasonCode | undefined)[];

/** The decisions of one outcome class, most trusted first. */
function decideClass(list: readonly Ranked[], removed: Removals, removeCount: number, decisions: Decision[]): void {
  markTies(list, removed);
  for (let i = 0; i < list.length; i++) {
    const r = list[i] as Ranked;
    decisions[r.at] = decisionFor(r, i + 1, removed[r.at], removeCount);
  }
}

/** A ranked member's figures: `consistencyOf` without the intermediate object. */
function rankedOf(m: RankInput, at: number, s: FilterSettings): Ranked {
  const scores = m.scores as readonly (number | null)[];
  const correct = m.correct as boolean;
  const score = aggregateScores(scores, s.aggregate);
  const penalised = isPenalised(scores.length, s.penalty, s.maxSteps);
  return { id: m.id, at, correct, steps: scores.length, score, consistency: (correct ? score : -score) - (penalised ? s.lambda : 0), penalised };
}

/** Reasons a tie can replace: removals by rank. A random or whole-group removal is no tie-break. */
const RANK_REMOVALS: ReadonlySet<ReasonCode> = new Set(['dropped-low-consistency', 'dropped-conflict']);

/**
 * A removed rollout whose consistency equals that of a kept rollout of its class was removed by
 * file order, not by its scores: its reason becomes `dropped-tie` (the kept/dropped bits stay).
 * `list` is sorted most trusted first, so the rollouts within `TIE_TOLERANCE` of one sit in one
 * run around it. That run is followed with two pointers and a running count of kept rollouts,
 * so a group of a million tied rollouts is marked in one pass (asking each removed rollout's
 * neighbours in turn made that quadratic: 200,000 ties took minutes).
 */
function markTies(list: readonly Ranked[], removed: Removals): void {
  const n = list.length;
  // keptBefore[k]: kept rollouts among list[0..k), read before any reason below is rewritten
  // (a tie's removal stays a removal, so the counts hold throughout).
  const keptBefore = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) keptBefore[k + 1] = (keptBefore[k] as number) + (removed[(list[k] as Ranked).at] === undefined ? 1 : 0);
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) {
    const r = list[i] as Ranked;
    const reason = removed[r.at];
    if (reason === undefined || !RANK_REMOVALS.has(reason)) continue;
    const value = r.consistency;
    // The run of rollouts within the tolerance of `value`: [lo, hi). Both ends only move forward,
    // since the values only go down.
    while (lo < i && (list[lo] as Ranked).consistency - value > TIE_TOLERANCE) lo++;
    if (hi <= i) hi = i + 1;
    while (hi < n && value - (list[hi] as Ranked).consistency <= TIE_TOLERANCE) hi++;
    if ((keptBefore[hi] as number) - (keptBefore[lo] as number) > 0) removed[r.at] = 'dropped-tie';
  }
}

function notRankedReason(m: RankInput): ReasonCode | null {
  if (m.nonBinary) return 'not-ranked-non-binary';
  if (m.correct === null) return 'not-ranked-no-outcome';
  if (m.scores === null) return 'not-ranked-no-scores';
  return null;
}

function unranked(m: RankInput, reason: ReasonCode): Decision {
  return { id: m.id, kept: false, reason, steps: m.scores?.length ?? 0, score: null, consistency: null, penalised: false, rank: null };
}

/** Most trusted first; see the comment inside for ties. */
function sortByConsistency(list: Ranked[]): Ranked[] {
  return stableSort(list, byConsistency);
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

// Highest consistency first. Among equals the LATER rollout sorts first, so that the removal
// from the tail (lowest first) takes the earlier rollout first, as a stable ascending sort does.
const byConsistency = (a: Ranked, b: Ranked): number => b.consistency - a.consistency || b.id - a.id;

/** R: how many rollouts to remove from the ranked part of the group. */
function removalCount(n: number, s: FilterSettings): number {
  return s.remove !== null ? s.remove : n - s.m;
}

/** Marks the removed members of a group (by position) with why they were removed, before penalty refinement. */
function chooseRemoved(correct: Ranked[], incorrect: Ranked[], s: FilterSettings, groupKey: string, removed: Removals): void {
  const n = correct.length + incorrect.length;
  const R = removalCount(n, s);
  if (R <= 0) return;
  if (s.remove !== null && n <= R) {
    for (const r of correct) removed[r.at] = 'dropped-group-too-small';
    for (const r of incorrect) removed[r.at] = 'dropped-group-too-small';
    return;
  }
  const rPlusRaw = Math.min(R, roundHalfEven((correct.length - incorrect.length + R) / 2));
  const rPlus = Math.max(0, Math.min(rPlusRaw, correct.length));
  const rMinus = Math.min(R - rPlus, incorrect.length);
  for (let k = correct.length - rPlus; k < correct.length; k++) removed[(correct[k] as Ranked).at] = 'dropped-low-consistency';
  if (s.variant === 'pos') {
    for (const r of seededSample(incorrect, rMinus, `${s.seed}\u0000${groupKey}`)) removed[r.at] = 'dropped-random';
  } else {
    for (let k = incorrect.length - rMinus; k < incorrect.length; k++) removed[(incorrect[k] as Ranked).at] = 'dropped-conflict';
  }
}

function decisionFor(r: Ranked, rank: number, removedAs: ReasonCode | undefined, R: number): Decision {
  let reason: ReasonCode = R <= 0 ? 'kept-small-group' : 'kept';
  if (removedAs) {
    // A tie names what decided; between two penalised rollouts the penalty did not.
    const penaltyApplies = r.penalised && RANK_REMOVALS.has(removedAs);
    reason = penaltyApplies ? 'dropped-step-penalty' : removedAs;
  }
  // One literal shape for every decision: millions of them stay compact in memory.
  return { id: r.id, kept: !removedAs, reason, steps: r.steps, score: r.score, consistency: r.consistency, penalised: r.penalised, rank };
}
