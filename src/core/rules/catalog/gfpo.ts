/**
 * GFPO (TRL's `trl.experimental.gfpo`): a group filter scores each completion, and the
 * `num_remains_in_group` highest scores are kept (`torch.topk`); the rest are dropped. Two filters,
 * as the GFPO paper uses them: `length` (shorter first) and `reward_per_token` (reward over length,
 * higher first). Dumps carry no token counts, so length is the response's characters. `torch.topk`
 * promises no order among equal scores; here the earlier rollout is kept. The reference refuses
 * `num_remains_in_group` ≥ the group's size; such a group is kept whole. Without
 * `num_remains_in_group` the reference does not filter (plain GRPO).
 */
import { notRankedOutcome, rewardOf, type CurationRule, type GroupVerdicts, type RuleGroup, type RuleParams } from '../rule';

export const RULE: CurationRule = {
  name: 'gfpo',
  title: 'GFPO',
  summary: 'GFPO: keep the num_remains_in_group shortest (or most reward per token).',
  order: 30,
  reference: 'huggingface/trl trl/experimental/gfpo/gfpo_trainer.py (group_filter_func, num_remains_in_group)',
  reads: ['outcome', 'reward', 'length'],
  params: [
    { name: 'num_remains_in_group', kind: 'count', default: null, words: 'rollouts kept per group (unset: no filtering)' },
    { name: 'group_filter_func', kind: 'choice', default: 'length', choices: ['length', 'reward_per_token'], words: 'what ranks a group: shortest first, or most reward per character' },
  ],
  reasons: [
    { code: 'kept-within-quota', words: 'kept: group not larger than num_remains_in_group', short: 'kept, within quota' },
    { code: 'dropped-ranked-out', words: 'dropped: not among those the rule keeps by its order', short: 'dropped, ranked out' },
  ],
  decideGroup,
};

function decideGroup(group: RuleGroup, params: RuleParams, out: GroupVerdicts): void {
  const keep = params['num_remains_in_group'] as number | null;
  const ranked: { k: number; score: number }[] = [];
  for (let k = 0; k < group.size; k++) {
    const notRanked = notRankedOutcome(group, k);
    if (notRanked) out.set(k, false, notRanked, null);
    else ranked.push({ k, score: filterScore(group, k, params['group_filter_func'] as string) });
  }
  if (keep === null || ranked.length <= keep) {
    for (const r of ranked) out.set(r.k, true, keep === null ? 'kept' : 'kept-within-quota', null);
    return;
  }
  // Highest score first; equal scores in file order (Array.prototype.sort is stable).
  ranked.sort((a, b) => b.score - a.score);
  ranked.forEach((r, i) => out.set(r.k, i < keep, i < keep ? 'kept' : 'dropped-ranked-out', null));
}

/** The group filter's score: higher is kept. */
export function filterScore(group: RuleGroup, k: number, filter: string): number {
  const chars = group.signals(k).chars ?? 0;
  if (filter === 'length') return -chars;
  const reward = rewardOf(group, k) ?? 0;
  return chars === 0 ? (reward > 0 ? Infinity : reward < 0 ? -Infinity : 0) : reward / chars;
}
