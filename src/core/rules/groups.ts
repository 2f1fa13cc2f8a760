/**
 * From scored rollouts to decisions: gather groups, run the PROF filter on each, and flag
 * suspected false positives (correct answers the process evidence does not support).
 */
import type { Decision } from '../model';
import type { FalsePositiveRule, ProfSettings } from '../profSettings';
import { stableSort, TIE_TOLERANCE, type RankInput } from './profMath';
import { isLowScore, weakestStepOf } from '../presentation/stepFacts';
import { flagStrength, type FlagStrength } from './flagStrength';

/** One rollout as the group stage sees it. */
export interface GroupMember extends RankInput {
  group: string;
}

/** What a suspected false positive rests on: a step the scorer marks low, or a gap below its peers. */
export interface FalsePositiveEvidence {
  /** The first step scoring below the threshold (0-based) and its score. */
  lowStep: { step: number; score: number } | null;
  /** The lowest-scoring step (the first of equals) when a step is below the threshold: what the evidence names. */
  weakestStep: { step: number; score: number } | null;
  /**
   * How far below its peers it sits: for `bottom-half`, its aggregate step score against the lowest
   * of the upper half of its correct group; for `prof-dropped`, its consistency against the
   * weakest kept correct rollout.
   */
  gap: { measure: 'score' | 'consistency'; value: number; reference: number } | null;
}

export interface FalsePositive {
  suspected: boolean;
  /** Every rule that fired (all are computed; `suspected` counts only the selected ones). */
  rules: FalsePositiveRule[];
  /** Present whenever a rule fired: every flag names its evidence. */
  evidence: FalsePositiveEvidence | null;
  /** How strongly the evidence of the selected rules speaks; null when not suspected. */
  strength: FlagStrength | null;
}

/** Not suspected, no rule fired: one shared value. */
export const NOT_SUSPECTED: FalsePositive = Object.freeze({ suspected: false, rules: Object.freeze([]) as unknown as FalsePositiveRule[], evidence: null, strength: null });

export interface GroupOutcome {
  decisions: Decision[];
  falsePositives: FalsePositive[];
}

/** 0-based index of the first step scoring below the threshold, or null. */
export function firstLowStep(scores: readonly (number | null)[] | null, threshold: number): number | null {
  if (!scores) return null;
  for (let i = 0; i < scores.length; i++) if (isLowScore(scores[i], threshold)) return i;
  return null;
}

/**
 * The three rules of docs/prof-semantics.md §Suspected false positives, for correct rollouts that were ranked, each only with evidence:
 * `weak-step` — a step scores below the threshold (the evidence is that step);
 * `prof-dropped` — PROF drops it for low consistency (not for a tie, a penalty or a random draw):
 *   its consistency is below that of a kept correct rollout;
 * `bottom-half` — its aggregate step score is strictly below every rollout of the upper half of
 *   its correct group (the paper's audit; the length penalty says nothing about the steps, so it
 *   is left out); nothing fires in a group that ties.
 */
export function falsePositivesOf(members: readonly RankInput[], decisions: readonly Decision[], settings: ProfSettings): FalsePositive[] {
  // The ranked correct members' scores (in member order) and the weakest kept one's consistency.
  const correctScores: number[] = [];
  let keptFloor: number | null = null;
  for (let i = 0; i < members.length; i++) {
    const member = members[i] as RankInput;
    const decision = decisions[i] as Decision;
    if (member.correct !== true || decision.rank === null || member.nonBinary) continue;
    correctScores.push(decision.score as number);
    if (decision.kept) keptFloor = keptFloor === null ? (decision.consistency as number) : Math.min(keptFloor, decision.consistency as number);
  }
  const upperFloor = upperHalfFloor(correctScores);
  const result = new Array<FalsePositive>(members.length);
  for (let i = 0; i < members.length; i++) result[i] = falsePositiveOf(members[i] as RankInput, decisions[i] as Decision, upperFloor, keptFloor, settings);
  return result;
}

function falsePositiveOf(m: RankInput, d: Decision, upperFloor: number | null, keptFloor: number | null, settings: ProfSettings): FalsePositive {
  if (m.correct !== true || d.rank === null || m.nonBinary) return NOT_SUSPECTED;
  const low = firstLowStep(m.scores, settings.threshold);
  const lowStep = low === null ? null : { step: low, score: m.scores![low] as number };
  const weakestStep = low === null ? null : weakestStepOf(m.scores);
  return rankedFalsePositive({ reason: d.reason, score: d.score!, consistency: d.consistency!, lowStep, weakestStep }, upperFloor, keptFloor, settings);
}

/** A ranked correct rollout as the rules see it: its decision's figures and its low step's evidence. */
export interface RankedCorrect {
  reason: Decision['reason'];
  score: number;
  consistency: number;
  lowStep: FalsePositiveEvidence['lowStep'];
  weakestStep: FalsePositiveEvidence['weakestStep'];
}

/**
 * The rules of `falsePositivesOf` for one ranked correct rollout of a group whose upper half's floor
 * and weakest kept consistency are known (the decider asks it only where a rule may fire).
 */
export function rankedFalsePositive(r: RankedCorrect, upperFloor: number | null, keptFloor: number | null, settings: ProfSettings): FalsePositive {
  const rules: FalsePositiveRule[] = [];
  let gap: FalsePositiveEvidence['gap'] = null;
  let keptGap: FalsePositiveEvidence['gap'] = null;
  if (r.reason === 'dropped-low-consistency' && keptFloor !== null && r.consistency < keptFloor - TIE_TOLERANCE) {
    rules.push('prof-dropped');
    gap = keptGap = { measure: 'consistency', value: r.consistency, reference: keptFloor };
  }
  if (r.lowStep) rules.push('weak-step');
  let upperGap: FalsePositiveEvidence['gap'] = null;
  if (upperFloor !== null && r.score < upperFloor - TIE_TOLERANCE) {
    rules.push('bottom-half');
    gap = upperGap = { measure: 'score', value: r.score, reference: upperFloor };
  }
  if (rules.length === 0) return NOT_SUSPECTED;
  const weakestStep = r.weakestStep;
  const suspected = rules.some((rule) => settings.falsePositiveRules.includes(rule));
  const strength = suspected ? flagStrength({ weakestStep, upperGap, keptGap }, settings) : null;
  return { suspected, rules, evidence: { lowStep: r.lowStep, weakestStep, gap }, strength };
}

/**
 * The lowest aggregate step score of the upper half of a correct group (its n+ − ⌊n+/2⌋ best
 * scored rollouts); null when there is no bottom half (n+ < 2). Sorts `scores`.
 */
export function upperHalfFloor(scores: number[]): number | null {
  stableSort(scores, descending);
  const upper = scores.length - Math.floor(scores.length / 2);
  return upper === scores.length ? null : (scores[upper - 1] as number);
}

const descending = (a: number, b: number): number => b - a;
