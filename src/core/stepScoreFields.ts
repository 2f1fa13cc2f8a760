/**
 * Where a record keeps step scores it already has: one list of names for every format, the ones
 * `report` reads and `eval` reads alike, so scores written by `prof-lens score` (or by a PRM run
 * elsewhere) are found wherever the record came from.
 */
import { asScores, firstKey, type Json } from './fields';

/** The names step scores go by, in the order they are looked for. */
export const STEP_SCORE_KEYS = ['step_scores', 'prm_scores', 'step_rewards', 'values'] as const;

/** The record's step scores (the first of `STEP_SCORE_KEYS` it has), or null. */
export function recordStepScores(record: Json): (number | null)[] | null {
  const key = firstKey(record, STEP_SCORE_KEYS);
  return key ? asScores(record[key]) : null;
}
