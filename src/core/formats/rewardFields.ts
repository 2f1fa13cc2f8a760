/**
 * The per-sample reward fields a record carries beside its outcome: verl's extra reward keys
 * (`acc`, `reward`, `format_score` …), TRL's one column per reward function, a reward model's
 * `pred_score`, the trainer's `advantage`. They are shown under their own names, never dropped,
 * and never taken for the outcome unless the adapter (or the user's mapping) says so.
 */
import type { RewardField } from '../model';

/** Names that say a number is a reward, a score or a verdict (a flawed-positive verdict or a first wrong step: FAPO reads them). */
const REWARD_NAME = /reward|score|acc|correct|advantage|pass|penalty|verif|format|flawed|first_error|error_location/i;

/** Numbers in a record that are positions, counts or ids, not rewards. */
const NOT_REWARDS = new Set(['step', 'global_step', 'idx', 'index', 'sample_idx', 'prompt_idx', 'id', 'line', 'num_turns', '__num_turns__', 'response_length', 'prompt_length', 'input_lengths', 'group_index']);

/** The most reward fields one rollout carries (a record with hundreds of numbers is not listing rewards). */
export const MAX_REWARD_FIELDS = 16;

/** A value as a reward: a finite number, a boolean, or null (a reward function that returned None). */
export function rewardValue(value: unknown): number | boolean | null | undefined {
  if (typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  return undefined;
}

/**
 * The reward-like fields of a flat record, in the record's order; null when there are none
 * beside the outcome's own field (`outcomeField`: the outcome already says it).
 */
export function rewardFieldsOf(record: Record<string, unknown>, outcomeField?: string): RewardField[] | null {
  let fields: RewardField[] | null = null;
  let beside = false;
  for (const name in record) {
    if (fields !== null && fields.length >= MAX_REWARD_FIELDS) break;
    const value = rewardValue(record[name]);
    if (value === undefined || value === null || NOT_REWARDS.has(name) || !REWARD_NAME.test(name)) continue;
    (fields ??= []).push({ name, value });
    if (name !== outcomeField) beside = true;
  }
  return beside ? fields : null;
}

/** The i-th entries of a grouped record's arrays parallel to its responses (`pred_score`, …). */
export function parallelRewardFields(record: Record<string, unknown>, count: number, skip: ReadonlySet<string>): ((i: number) => RewardField[] | null) {
  const columns: { name: string; values: unknown[] }[] = [];
  for (const name in record) {
    const values = record[name];
    if (columns.length >= MAX_REWARD_FIELDS) break;
    if (skip.has(name) || !REWARD_NAME.test(name) || !Array.isArray(values) || values.length !== count) continue;
    if (values.every((v) => rewardValue(single(v)) !== undefined)) columns.push({ name, values });
  }
  if (columns.length === 0) return () => null;
  return (i) => columns.map((c) => ({ name: c.name, value: rewardValue(single(c.values[i])) ?? null }));
}

/** `[0.93]` (a reward model's one score per response, in a list) as 0.93. */
function single(value: unknown): unknown {
  return Array.isArray(value) && value.length === 1 ? value[0] : value;
}
