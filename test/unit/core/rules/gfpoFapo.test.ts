// GFPO keeps the num_remains_in_group best by its group filter; FAPO demotes the correct rollouts
// its GenRM (the dump's verdict, or the scorer's flagged step) finds a wrong step in.
import { describe, expect, it } from 'vitest';
import { flawedOf } from '../../../../src/core/rules/decide';
import { reasonLabel } from '../../../../src/core/presentation/reasonWords';
import { decide, keptIds, member } from './ruleCases';

const byChars = (outcomes: string, chars: number[]) => [...outcomes].map((o, i) => member(i, o as 'c' | 'i', { chars: chars[i]! }));

describe('gfpo', () => {
  it('without num_remains_in_group filters nothing, as the reference', () => {
    expect(keptIds(decide(byChars('cic', [900, 10, 50]), 'gfpo'))).toEqual([0, 1, 2]);
  });

  it('length: keeps the shortest, whatever their outcome', () => {
    const d = decide(byChars('ciccii', [300, 100, 200, 120, 500, 90]), 'gfpo', { num_remains_in_group: 3 });
    expect(keptIds(d)).toEqual([1, 3, 5]);
    expect(d[0]!.reason).toBe('dropped-ranked-out');
  });

  it('equal lengths: the earlier rollout is kept', () => {
    expect(keptIds(decide(byChars('cicic', [100, 100, 100, 100, 100]), 'gfpo', { num_remains_in_group: 2 }))).toEqual([0, 1]);
  });

  it('reward_per_token: reward over length, higher first', () => {
    // correct 1/100 = .01, incorrect 0, correct 1/200 = .005, incorrect 0: keep 0 and 2.
    const d = decide(byChars('cici', [100, 50, 200, 10]), 'gfpo', { num_remains_in_group: 2, group_filter_func: 'reward_per_token' });
    expect(keptIds(d)).toEqual([0, 2]);
  });

  it('a group no larger than num_remains_in_group is kept whole', () => {
    const d = decide(byChars('ci', [5, 6]), 'gfpo', { num_remains_in_group: 2 });
    expect(d.map((x) => x.reason)).toEqual(['kept-within-quota', 'kept-within-quota']);
    // Said in GFPO's terms, not PROF's (`m`).
    expect(reasonLabel(d[0]!.reason)).toBe('kept: group not larger than num_remains_in_group');
  });
});

describe('fapo', () => {
  it('demotes a flawed positive, keeps the sound ones and every incorrect one', () => {
    const d = decide([member(0, 'c', { flawed: true }), member(1, 'c', { flawed: false }), member(2, 'i', { flawed: true })], 'fapo');
    expect(d.map((x) => [x.kept, x.reason])).toEqual([[false, 'dropped-flawed-positive'], [true, 'kept'], [true, 'kept']]);
  });

  it('auto: without the dump\'s verdict the scorer\'s first step below the threshold is the GenRM\'s', () => {
    const d = decide([member(0, 'c', {}, [0.9, 0.3, 0.8]), member(1, 'c', {}, [0.9, 0.6])], 'fapo');
    expect(keptIds(d)).toEqual([1]);
  });

  it('dump: a correct rollout the dump says nothing of is kept, and named as not judged', () => {
    const d = decide([member(0, 'c', {}, [0.1])], 'fapo', { genrm: 'dump' });
    expect(d[0]).toMatchObject({ kept: true, reason: 'kept-no-signal' });
  });

  it('no scores and no verdict: not judged, never guessed', () => {
    expect(decide([member(0, 'c', {}, null)], 'fapo')[0]!.reason).toBe('kept-no-signal');
  });

  it('scorer: the dump\'s verdict is not read', () => {
    const d = decide([member(0, 'c', { flawed: true }, [0.9, 0.9])], 'fapo', { genrm: 'scorer' });
    expect(d[0]!.kept).toBe(true);
  });

  it('reads is_flawed_positive, or a first-error index (-1: none found)', () => {
    expect(flawedOf([{ name: 'is_flawed_positive', value: true }])).toBe(true);
    expect(flawedOf([{ name: 'is_flawed_positive', value: false }, { name: 'first_error_step', value: 2 }])).toBe(false);
    expect(flawedOf([{ name: 'first_error_step', value: -1 }])).toBe(false);
    expect(flawedOf([{ name: 'first_error_step', value: 3 }])).toBe(true);
    expect(flawedOf([{ name: 'acc', value: 1 }])).toBeNull();
    expect(flawedOf(null)).toBeNull();
  });
});
