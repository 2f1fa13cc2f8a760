/**
 * The reward values a rollout carries from its file, as explorer columns: the one place that says
 * which numbers those are. Today that is the outcome the file states (its `score`, `reward`, `acc`
 * …), when it is a number or a boolean. Formats that read further per-sample reward fields (verl's
 * extra reward keys, TRL's one column per reward function) put them on the rollout as `rewards`,
 * named as the file names them, and the field the outcome came from as `outcomeField`; both are
 * read here when present, so every such column reaches the explorer without another change.
 */
import type { Outcome } from '../model';

/** What the reward values are read from. */
export interface RewardSource {
  outcome: Outcome;
  /** The file's field the outcome was read from, when the format names it. */
  outcomeField?: string | null;
  /** Further per-sample reward fields, as the file names them. */
  rewards?: readonly { name: string; value: number | boolean | null }[] | null;
}

/** The name of the outcome's column when the format does not name its field. */
export const OUTCOME_REWARD_NAME = 'outcome';

/** A reward value as a number: booleans as 1 and 0; null for anything else. */
function rewardNumber(value: unknown): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * Each reward value of a rollout, by column name, in the file's order (the outcome first); a
 * value that is not a number is null. Empty when the file states no reward.
 */
export function rewardValuesOf(r: RewardSource): { name: string; value: number | null }[] {
  const out: { name: string; value: number | null }[] = [];
  if (r.outcome.source === 'file' && r.outcome.value !== undefined) {
    out.push({ name: r.outcomeField ?? OUTCOME_REWARD_NAME, value: rewardNumber(r.outcome.value) });
  }
  for (const field of r.rewards ?? []) {
    if (!out.some((o) => o.name === field.name)) out.push({ name: field.name, value: rewardNumber(field.value) });
  }
  return out;
}
