/**
 * Flags ranked by strength: how far the weakest step falls below the threshold, how far the rollout
 * sits below the upper half of its correct group, how far PROF put it below the weakest kept one.
 * The report and the Problems view list the strongest first.
 */
import { describe, expect, it } from 'vitest';
import { type RankInput } from '../../../../src/core/rules/profMath';
import { decideGroup } from '../../../../src/core/rules/decideList';
import { falsePositivesOf } from '../../../../src/core/rules/groups';
import { strongestFirst } from '../../../../src/core/rules/flagStrength';
import { resolveSettings } from '../../../../src/core/profSettings';

function flagged(group: RankInput[], settings = {}): ReturnType<typeof falsePositivesOf> {
  const s = resolveSettings(settings);
  return falsePositivesOf(group, decideGroup(group, s), s);
}

describe('flag strength', () => {
  it('weak-step: threshold minus the weakest step, not the first low one', () => {
    // Mean .6 each: no bottom half, no PROF drop (m = 4 keeps both).
    const group: RankInput[] = [{ id: 0, correct: true, scores: [0.9, 0.45, 0.45, 0.6] }, { id: 1, correct: true, scores: [0.9, 0.9, 0.2, 0.4] }];
    const [a, b] = flagged(group);
    expect(a?.strength).toEqual({ belowThreshold: expect.closeTo(0.05, 12), belowUpperHalf: null, belowKept: null, value: expect.closeTo(0.05, 12) });
    expect(b?.strength?.value).toBeCloseTo(0.3, 12);
    expect(b?.evidence?.weakestStep).toEqual({ step: 2, score: 0.2 });
  });

  it('bottom-half and prof-dropped: the gaps, the largest is the value', () => {
    const group: RankInput[] = [0.9, 0.8, 0.7, 0.3].map((mean, id) => ({ id, correct: true, scores: [mean, mean] }));
    const fps = flagged(group, { m: 3 });
    // Upper half .9 .8 (lowest .8); .3 is dropped by PROF (kept floor .7) and weak (below .5).
    expect(fps[3]?.rules).toEqual(['prof-dropped', 'weak-step', 'bottom-half']);
    expect(fps[3]?.strength).toEqual({ belowThreshold: expect.closeTo(0.2, 12), belowUpperHalf: expect.closeTo(0.5, 12), belowKept: expect.closeTo(0.4, 12), value: expect.closeTo(0.5, 12) });
    expect(fps[2]?.strength).toEqual({ belowThreshold: null, belowUpperHalf: expect.closeTo(0.1, 12), belowKept: null, value: expect.closeTo(0.1, 12) });
  });

  it('only the selected rules count; an unsuspected rollout has no strength', () => {
    const group: RankInput[] = [0.9, 0.8, 0.7, 0.3].map((mean, id) => ({ id, correct: true, scores: [mean, mean] }));
    const fps = flagged(group, { m: 3, falsePositiveRules: ['weak-step'] });
    expect(fps[3]?.strength).toEqual({ belowThreshold: expect.closeTo(0.2, 12), belowUpperHalf: null, belowKept: null, value: expect.closeTo(0.2, 12) });
    expect(fps[2]).toMatchObject({ suspected: false, rules: ['bottom-half'], strength: null });
  });

  it('strongestFirst: suspected only, by strength, file order among equals', () => {
    const r = (id: number, value: number | null) => ({ id, falsePositive: { suspected: value !== null, strength: value === null ? null : { belowThreshold: value, belowUpperHalf: null, belowKept: null, value } } });
    const ranked = strongestFirst([r(0, 0.1), r(1, null), r(2, 0.45), r(3, 0.1), r(4, 0.3)]);
    expect(ranked.map((x) => x.id)).toEqual([2, 4, 0, 3]);
  });
});
