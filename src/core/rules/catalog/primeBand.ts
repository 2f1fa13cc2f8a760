/**
 * PRIME's accuracy filter (`RayPPOTrainer.filter`): a prompt's group is kept when its accuracy (the
 * mean of the verifier's 0/1 over its rollouts) lies in [accuracy_lower_bound, accuracy_upper_bound],
 * both ends included; else the whole group is dropped. Rollouts without a binary outcome are left
 * out of the mean (the reference has a verdict for each). The reference's truncation filter needs token counts that
 * dumps do not carry; it is not applied.
 */
import { CORRECT, notRankedOutcome, type CurationRule, type GroupVerdicts, type RuleGroup, type RuleParams } from '../rule';

export const RULE: CurationRule = {
  name: 'prime',
  title: 'PRIME accuracy band',
  summary: 'PRIME: keep groups whose accuracy lies in [0.2, 0.8].',
  order: 20,
  reference: 'PRIME-RL/PRIME training/verl/trainer/ppo/ray_trainer.py (filter); training/examples/run_prime_main.sh',
  reads: ['outcome'],
  params: [
    { name: 'accuracy_lower_bound', kind: 'fraction', default: 0.2, words: 'lowest group accuracy kept (inclusive)' },
    { name: 'accuracy_upper_bound', kind: 'fraction', default: 0.8, words: 'highest group accuracy kept (inclusive)' },
  ],
  reasons: [{ code: 'dropped-outside-band', words: 'dropped: group accuracy outside the band', short: 'dropped, outside band' }],
  decideGroup,
};

function decideGroup(group: RuleGroup, params: RuleParams, out: GroupVerdicts): void {
  let sum = 0;
  let n = 0;
  for (let k = 0; k < group.size; k++) {
    if (notRankedOutcome(group, k) !== null) continue;
    if (group.outcome(k) === CORRECT) sum++;
    n++;
  }
  const accuracy = n === 0 ? Number.NaN : sum / n;
  const inBand = accuracy >= (params['accuracy_lower_bound'] as number) && accuracy <= (params['accuracy_upper_bound'] as number);
  for (let k = 0; k < group.size; k++) {
    const notRanked = notRankedOutcome(group, k);
    if (notRanked) out.set(k, false, notRanked, null);
    else out.set(k, inBand, inBand ? 'kept' : 'dropped-outside-band', null);
  }
}
