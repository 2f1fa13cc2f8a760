/**
 * GRPO: every rollout is trained on. verl's `compute_grpo_outcome_advantage` divides by the group's
 * std, so a group whose rewards are all equal (or a lone rollout with reward 0) gets zero advantage
 * and teaches nothing: kept, under its own reason. `filter_groups` is DAPO's dynamic sampling
 * (`algorithm.filter_groups`): it drops the groups whose rewards have std 0, a lone rollout excepted.
 */
import { notRankedOutcome, rewardOf, type CurationRule, type GroupVerdicts, type RuleGroup, type RuleParams } from '../rule';

export const RULE: CurationRule = {
  name: 'grpo',
  title: 'GRPO (keep all)',
  summary: 'GRPO: keep every rollout (groups with equal rewards have zero advantage).',
  order: 10,
  reference: 'volcengine/verl verl/trainer/ppo/core_algos.py (compute_grpo_outcome_advantage); verl-recipe dapo/dapo_ray_trainer.py (filter_groups)',
  reads: ['outcome', 'reward'],
  params: [
    { name: 'filter_groups', kind: 'boolean', default: false, words: 'drop groups whose rewards are all equal (DAPO\'s dynamic sampling)' },
  ],
  reasons: [
    { code: 'kept-zero-advantage', words: 'kept: all rewards of its group equal (zero advantage, no gradient)', short: 'kept, zero advantage' },
    { code: 'dropped-equal-rewards', words: 'dropped: all rewards of its group equal', short: 'dropped, equal rewards' },
  ],
  decideGroup,
};

function decideGroup(group: RuleGroup, params: RuleParams, out: GroupVerdicts): void {
  const rewards: number[] = [];
  for (let k = 0; k < group.size; k++) {
    const r = rewardOf(group, k);
    if (r !== null) rewards.push(r);
  }
  const n = rewards.length;
  const allEqual = n > 1 && rewards.every((r) => r === rewards[0]);
  // (r − mean) / (std + ε): a lone rollout has mean 0 and std 1, so only a reward of 0 gives it nothing.
  const zeroAdvantage = allEqual || (n === 1 && rewards[0] === 0);
  const drop = params['filter_groups'] === true && allEqual;
  for (let k = 0; k < group.size; k++) {
    const notRanked = notRankedOutcome(group, k);
    if (notRanked) out.set(k, false, notRanked, null);
    else if (drop) out.set(k, false, 'dropped-equal-rewards', null);
    else out.set(k, true, zeroAdvantage ? 'kept-zero-advantage' : 'kept', null);
  }
}
