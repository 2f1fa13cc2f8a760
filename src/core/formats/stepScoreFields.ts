/**
 * Where a record keeps step scores it already has: one list of names for every format, the ones
 * `report` reads and `eval` reads alike, so scores written by `prof-lens score` (or by a PRM run
 * elsewhere) are found wherever the record came from.
 */
import { asScores, firstKey, readScores, type Json } from './fields';
import type { Rollout } from '../model';

/** The names step scores go by, in the order they are looked for. */
export const STEP_SCORE_KEYS = ['step_scores', 'prm_scores', 'step_rewards', 'values'] as const;

/** The record's step scores (the first of `STEP_SCORE_KEYS` it has), or null. */
export function recordStepScores(record: Json): (number | null)[] | null {
  const key = firstKey(record, STEP_SCORE_KEYS);
  return key ? asScores(record[key]) : null;
}

/**
 * A draft's step-score fields from the record: the scores, or (for scores that are not numbers in
 * [0, 1] or null) none, with the problem naming the entry, so the rollout is reported rather than
 * silently scored by another scorer.
 */
export function stepScoreFields(record: Json): Pick<Rollout, 'fileStepScores' | 'fileScoresProblem'> {
  const key = firstKey(record, STEP_SCORE_KEYS);
  const read = readScores(key ? record[key] : undefined, key ?? '');
  return read.problem === undefined ? { fileStepScores: read.scores } : { fileStepScores: null, fileScoresProblem: read.problem };
}
