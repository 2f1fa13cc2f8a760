// GRPO keeps everything (zero-advantage groups named), DAPO's filter_groups drops them; PRIME keeps
// a group whose accuracy lies in its band, ends included.
import { describe, expect, it } from 'vitest';
import { decide, groupOf, keptIds, member } from './ruleCases';

describe('grpo', () => {
  it('keeps a mixed group as it is', () => {
    const d = decide(groupOf('cicii'), 'grpo');
    expect(keptIds(d)).toEqual([0, 1, 2, 3, 4]);
    expect(d.every((x) => x.reason === 'kept')).toBe(true);
  });

  it('keeps an all-correct group but says its advantage is zero; filter_groups drops it', () => {
    expect(decide(groupOf('cccc'), 'grpo').map((x) => x.reason)).toEqual(Array(4).fill('kept-zero-advantage'));
    const filtered = decide(groupOf('iii'), 'grpo', { filter_groups: true });
    expect(filtered.map((x) => [x.kept, x.reason])).toEqual(Array(3).fill([false, 'dropped-equal-rewards']));
  });

  it('a lone rollout: mean 0, std 1 in the reference, so only reward 0 gives it nothing; filter_groups keeps it', () => {
    expect(decide(groupOf('c'), 'grpo')[0]!.reason).toBe('kept');
    expect(decide(groupOf('i'), 'grpo')[0]!.reason).toBe('kept-zero-advantage');
    expect(decide(groupOf('i'), 'grpo', { filter_groups: true })[0]!.kept).toBe(true);
  });

  it('reads the file\'s reward values: 1 and −1 differ, two 0.7s are equal', () => {
    expect(decide([member(0, 'c', { reward: 1 }), member(1, 'i', { reward: -1 })], 'grpo').map((x) => x.reason)).toEqual(['kept', 'kept']);
    expect(decide([member(0, 'c', { reward: 0.7 }), member(1, 'c', { reward: 0.7 })], 'grpo', { filter_groups: true }).every((x) => !x.kept)).toBe(true);
  });

  it('leaves rollouts without an outcome unranked and out of the equality', () => {
    const d = decide(groupOf('ccu'), 'grpo', { filter_groups: true });
    expect(d.map((x) => x.reason)).toEqual(['dropped-equal-rewards', 'dropped-equal-rewards', 'not-ranked-no-outcome']);
  });

  it('keeps rollouts no scorer could score (GRPO does not read step scores)', () => {
    const d = decide([member(0, 'c', {}, null), member(1, 'i', {}, null)], 'grpo');
    expect(keptIds(d)).toEqual([0, 1]);
  });
});

describe('prime', () => {
  it('keeps accuracies 0.2 and 0.8 (both ends included) and drops 0, 1 and 0.9', () => {
    expect(keptIds(decide(groupOf('ciiii'), 'prime'))).toHaveLength(5);
    expect(keptIds(decide(groupOf('cccci'), 'prime'))).toHaveLength(5);
    expect(keptIds(decide(groupOf('iiiii'), 'prime'))).toEqual([]);
    expect(keptIds(decide(groupOf('ccccc'), 'prime'))).toEqual([]);
    const d = decide(groupOf('ccccccccci'), 'prime');
    expect(d.every((x) => x.reason === 'dropped-outside-band')).toBe(true);
  });

  it('an odd group of 7 with 5 correct (0.714…) is kept; a band [0.75, 1] drops it', () => {
    expect(keptIds(decide(groupOf('cccccii'), 'prime'))).toHaveLength(7);
    expect(keptIds(decide(groupOf('cccccii'), 'prime', { accuracy_lower_bound: 0.75, accuracy_upper_bound: 1 }))).toEqual([]);
  });

  it('counts accuracy over the rollouts with an outcome only', () => {
    // 1 of 4 judged = 0.25 (in the band); counting the unknown one as wrong would give 0.2, as the unknown as right 0.4.
    const d = decide(groupOf('ciiiu'), 'prime', { accuracy_lower_bound: 0.25, accuracy_upper_bound: 0.25 });
    expect(keptIds(d)).toEqual([0, 1, 2, 3]);
    expect(d[4]!.reason).toBe('not-ranked-no-outcome');
  });
});
