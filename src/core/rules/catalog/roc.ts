/**
 * Resample-on-Correct (rStar2-Agent, `down_sample/roc.py` and `reject_sampling.py`). With
 * `reject_equal_reward`, a group whose rewards are all close (`torch.allclose`) is dropped. Then a
 * group smaller than `down_sample_to_n` is dropped, one of exactly that size kept; a larger one keeps
 * quotas of zero-reward and positive-reward rollouts in proportion to the group, each rounded half
 * to even (Python's `round`) and raised to `min_zero_reward_trace_num` / `min_non_zero_reward_trace_num`
 * (as far as there are such rollouts), the positive ones lowest penalty first (a stable sort, so
 * file order among equals), the zero-reward ones in file order. The penalty is the tool-error ratio
 * of `<tool_response>` blocks (0.5 when there are none) plus the answer-format penalty (`<answer>`
 * tags against assistant turns), each when its switch is on. Both are read from the response
 * text; where the text is not at hand the penalties cannot be computed, the rule says so, and
 * positive rollouts stay in file order.
 */
import { roundHalfEven } from '../profMath';
import { notRankedOutcome, rewardOf, type CurationRule, type GroupVerdicts, type RuleGroup, type RuleParams } from '../rule';
import { answerFormatPenalty, toolErrorRatio } from '../rocPenalties';

export const RULE: CurationRule = {
  name: 'roc',
  title: 'Resample-on-Correct (rStar2-Agent)',
  summary: 'Resample-on-Correct (rStar2-Agent): down-sample to quotas, positives lowest penalty first.',
  order: 50,
  reference: 'microsoft/rStar rstar2_agent/down_sample/roc.py (resample_of_correct), reject_sampling.py (reject_equal_reward)',
  reads: ['outcome', 'reward', 'response-text'],
  params: [
    { name: 'down_sample_to_n', kind: 'count', default: 16, words: 'rollouts kept per group' },
    { name: 'min_zero_reward_trace_num', kind: 'count', default: 2, words: 'at least this many zero-reward rollouts' },
    { name: 'min_non_zero_reward_trace_num', kind: 'count', default: 2, words: 'at least this many positive-reward rollouts' },
    { name: 'reject_equal_reward', kind: 'boolean', default: true, words: 'drop groups whose rewards are all equal' },
    { name: 'roc_error_ratio', kind: 'boolean', default: true, words: 'penalise tool calls that returned an error' },
    { name: 'roc_answer_format', kind: 'boolean', default: true, words: 'penalise missing or repeated <answer> tags' },
  ],
  // Also gives GRPO's dropped-equal-rewards and GFPO's dropped-ranked-out.
  reasons: [{ code: 'dropped-below-sample-size', words: 'dropped: group smaller than down_sample_to_n', short: 'dropped, below sample size' }],
  decideGroup,
};

function decideGroup(group: RuleGroup, params: RuleParams, out: GroupVerdicts): void {
  const members: { k: number; reward: number }[] = [];
  for (let k = 0; k < group.size; k++) {
    const notRanked = notRankedOutcome(group, k);
    if (notRanked) out.set(k, false, notRanked, null);
    else members.push({ k, reward: rewardOf(group, k) as number });
  }
  const markAll = (kept: boolean, reason: Parameters<GroupVerdicts['set']>[2]): void => {
    for (const m of members) out.set(m.k, kept, reason, null);
  };
  if (members.length === 0) return;
  if (params['reject_equal_reward'] === true && allClose(members.map((m) => m.reward))) return markAll(false, 'dropped-equal-rewards');
  const N = params['down_sample_to_n'] as number;
  if (members.length < N) return markAll(false, 'dropped-below-sample-size');
  if (members.length === N) return markAll(true, 'kept');
  const zero = members.filter((m) => m.reward <= 0);
  const positive = members.filter((m) => m.reward > 0)
    .map((m) => ({ k: m.k, penalty: penaltyOf(group, m.k, params) }))
    .sort((a, b) => a.penalty - b.penalty || 0);
  const minZero = params['min_zero_reward_trace_num'] as number;
  const minPositive = params['min_non_zero_reward_trace_num'] as number;
  let zeroCount = roundHalfEven((zero.length * N) / members.length);
  let positiveCount = roundHalfEven((positive.length * N) / members.length);
  if (zeroCount < minZero && positiveCount < minPositive) return markAll(true, 'kept');
  if (zeroCount <= Math.min(minZero, zero.length)) {
    zeroCount = Math.min(minZero, zero.length);
    positiveCount = N - zeroCount;
  }
  if (positiveCount <= Math.min(minPositive, positive.length)) {
    positiveCount = Math.min(minPositive, positive.length);
    zeroCount = N - positiveCount;
  }
  const kept = new Set<number>();
  // Python's list[:n]: a negative n leaves that many off the end.
  for (const p of pySlice(positive, positiveCount)) kept.add(p.k);
  for (const z of pySlice(zero, zeroCount)) kept.add(z.k);
  for (const m of members) out.set(m.k, kept.has(m.k), kept.has(m.k) ? 'kept' : 'dropped-ranked-out', null);
}

/** `list[:n]` as Python takes it. */
function pySlice<T>(list: readonly T[], n: number): readonly T[] {
  return n >= 0 ? list.slice(0, n) : list.slice(0, Math.max(0, list.length + n));
}

/** `torch.allclose(r[0], r)`: |r0 − r| ≤ 1e-8 + 1e-5 · |r| for every r. */
export function allClose(rewards: readonly number[]): boolean {
  const first = rewards[0] as number;
  return rewards.every((r) => Math.abs(first - r) <= 1e-8 + 1e-5 * Math.abs(r));
}

/** The switched-on penalties of a rollout's response; NaN when its text is not at hand (sorts as a tie). */
function penaltyOf(group: RuleGroup, k: number, params: RuleParams): number {
  const text = group.signals(k).text;
  if (text === null || text === undefined) return Number.NaN;
  return (params['roc_error_ratio'] === true ? toolErrorRatio(text) : 0) + (params['roc_answer_format'] === true ? answerFormatPenalty(text) : 0);
}
