import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { aggregateScores, isPenalised, roundHalfEven, type RankInput } from '../../../../src/core/rules/profMath';
import { decideGroup } from '../../../../src/core/rules/decideList';
import { resolveSettings, type ProfSettings } from '../../../../src/core/profSettings';

const S = resolveSettings();

/** A rollout with `h` steps all scoring `mean`. */
function r(id: number, correct: boolean | null, mean: number, h = 4): RankInput {
  return { id, correct, scores: Array.from({ length: h }, () => mean) };
}

function keptIds(members: RankInput[], settings: Partial<ProfSettings> = {}): number[] {
  return decideGroup(members, resolveSettings(settings))
    .filter((d) => d.kept)
    .map((d) => d.id);
}

describe('docs/prof-semantics.md §Worked examples', () => {
  it('n=8, m=4: keeps the two most trusted correct and the two least trusted incorrect', () => {
    const group = [r(0, true, 0.9, 4), r(1, true, 0.3, 5), r(2, true, 0.7, 6), r(3, true, 0.5, 7), r(4, true, 0.8, 5), r(5, false, 0.2, 4), r(6, false, 0.6, 5), r(7, false, 0.4, 6)];
    const decisions = decideGroup(group, S);
    expect(decisions.filter((d) => d.kept).map((d) => d.id)).toEqual([0, 4, 5, 7]);
    expect(decisions[1]!.reason).toBe('dropped-low-consistency');
    expect(decisions[6]!.reason).toBe('dropped-conflict');
  });

  it('n=8, m=5: round(2.5) = 2 correct removed (half to even), so three correct and two incorrect stay', () => {
    const group = [0.9, 0.8, 0.7, 0.6, 0.5].map((m, i) => r(i, true, m, 3)).concat([0.2, 0.3, 0.4].map((m, i) => r(5 + i, false, m, 3)));
    expect(keptIds(group, { m: 5 })).toEqual([0, 1, 2, 5, 6]);
  });
});

describe('round half to even', () => {
  it('matches Python round on halves, which Math.round does not', () => {
    expect([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, 2.4, 2.6].map(roundHalfEven)).toEqual([0, 2, 2, 4, 0, -2, 2, 3]);
    expect(Math.round(2.5)).toBe(3);
  });
});

describe('step-count penalty', () => {
  it.each([
    [0, true, true],
    [1, true, true],
    [2, false, false],
    [29, false, false],
    [30, true, false],
    [31, true, true],
  ])('H=%i: card %s, reference %s', (h, card, reference) => {
    expect(isPenalised(h, 'card', 30)).toBe(card);
    expect(isPenalised(h, 'reference', 30)).toBe(reference);
  });

  it('a penalised correct rollout sinks to the drop end even with the best steps', () => {
    const group = [r(0, true, 0.99, 30), r(1, true, 0.5, 4), r(2, true, 0.6, 4), r(3, false, 0.1, 4), r(4, false, 0.2, 4)];
    const d = decideGroup(group, resolveSettings({ m: 3 }));
    expect(d[0]).toMatchObject({ kept: false, reason: 'dropped-step-penalty', penalised: true });
    expect(d[0]!.consistency).toBeCloseTo(0.99 - 10);
  });

  it('a penalised incorrect rollout is removed first among incorrect ones', () => {
    const group = [r(0, true, 0.9), r(1, false, 0.1, 1), r(2, false, 0.9), r(3, false, 0.5)];
    const d = decideGroup(group, resolveSettings({ m: 2 }));
    expect(d.map((x) => x.kept)).toEqual([true, false, false, true]);
    expect(d[1]!.reason).toBe('dropped-step-penalty');
  });

  it('H = 0 (an empty score array) is ranked and penalised, not unscored', () => {
    const d = decideGroup([{ id: 0, correct: true, scores: [] }, r(1, true, 0.5), r(2, true, 0.4)], resolveSettings({ m: 2 }));
    expect(d[0]).toMatchObject({ kept: false, steps: 0, score: 0, penalised: true, reason: 'dropped-step-penalty' });
  });

  it('reference rule: H=30 is not penalised, H=31 is', () => {
    const group = [r(0, true, 0.2, 30), r(1, true, 0.9, 31), r(2, true, 0.5, 4)];
    const d = decideGroup(group, resolveSettings({ m: 2, penalty: 'reference' }));
    expect(d.map((x) => x.kept)).toEqual([true, false, true]);
  });

  it('λ scales the penalty; Hλ moves the threshold', () => {
    const d = decideGroup([r(0, true, 0.9, 12), r(1, true, 0.5, 3)], resolveSettings({ m: 1, maxSteps: 12, lambda: 0.5 }));
    expect(d[0]!.consistency).toBeCloseTo(0.4);
    expect(d.map((x) => x.kept)).toEqual([false, true]);
  });
});

describe('group shapes', () => {
  it('all correct: removes the least trusted correct', () => {
    const group = [0.1, 0.9, 0.5, 0.7, 0.3, 0.8].map((m, i) => r(i, true, m));
    expect(keptIds(group)).toEqual([1, 2, 3, 5]);
  });

  it('all incorrect: removes the incorrect with the highest step scores', () => {
    const group = [0.1, 0.9, 0.5, 0.7, 0.3, 0.8].map((m, i) => r(i, false, m));
    expect(keptIds(group)).toEqual([0, 2, 3, 4]);
  });

  it('n <= m keeps the whole group with kept-small-group', () => {
    const d = decideGroup([r(0, true, 0.1), r(1, false, 0.9), r(2, true, 0.5)], S);
    expect(d.every((x) => x.kept && x.reason === 'kept-small-group')).toBe(true);
  });

  it('remove larger than the group drops the whole group (reference behaviour)', () => {
    const d = decideGroup([r(0, true, 0.9), r(1, false, 0.1), r(2, true, 0.5)], resolveSettings({ remove: 3 }));
    expect(d.every((x) => !x.kept && x.reason === 'dropped-group-too-small')).toBe(true);
  });

  it('remove R works like m = n − R', () => {
    const group = [0.9, 0.3, 0.7, 0.5, 0.8].map((m, i) => r(i, true, m)).concat([0.2, 0.6, 0.4].map((m, i) => r(5 + i, false, m)));
    expect(keptIds(group, { remove: 4 })).toEqual(keptIds(group, { m: 4 }));
  });

  it('odd m: the tie between splits goes to k+ with the parity of n+ (n+=4, n−=4, m=5 → R=3, r+=round(1.5)=2)', () => {
    const group = [0.9, 0.8, 0.7, 0.6].map((m, i) => r(i, true, m)).concat([0.1, 0.2, 0.3, 0.4].map((m, i) => r(4 + i, false, m)));
    const kept = decideGroup(group, resolveSettings({ m: 5 })).filter((d) => d.kept);
    expect(kept.filter((d) => d.id < 4).length).toBe(2);
    expect(kept.length).toBe(5);
  });

  it('ties in consistency: the earlier rollout is removed first', () => {
    const group = [r(0, true, 0.5), r(1, true, 0.5), r(2, true, 0.5)];
    expect(keptIds(group, { m: 2 })).toEqual([1, 2]);
    const wrong = [r(0, false, 0.5), r(1, false, 0.5), r(2, false, 0.5)];
    expect(keptIds(wrong, { m: 1 })).toEqual([2]);
  });
});

describe('rollouts that cannot be ranked', () => {
  it('unknown, non-binary and unscored rollouts are marked, left out of n, never lost', () => {
    const group = [r(0, null, 0.9), { ...r(1, true, 0.9), nonBinary: true }, { id: 2, correct: true, scores: null }, r(3, true, 0.8), r(4, true, 0.2), r(5, false, 0.3), r(6, false, 0.1), r(7, true, 0.7)];
    const d = decideGroup(group, S);
    expect(d.map((x) => x.reason).slice(0, 3)).toEqual(['not-ranked-no-outcome', 'not-ranked-non-binary', 'not-ranked-no-scores']);
    expect(d.slice(0, 3).every((x) => !x.kept && x.rank === null)).toBe(true);
    // Five ranked (n=5, m=4): one removed.
    expect(d.filter((x) => x.kept).length).toBe(4);
  });
});

describe('aggregation', () => {
  it('mean, min and sum skip unscored steps', () => {
    expect(aggregateScores([0.2, null, 0.8], 'mean')).toBeCloseTo(0.5);
    expect(aggregateScores([0.2, null, 0.8], 'min')).toBe(0.2);
    expect(aggregateScores([0.2, null, 0.8], 'sum')).toBeCloseTo(1.0);
    expect(aggregateScores([], 'mean')).toBe(0);
  });

  it('min aggregation changes which correct rollout is trusted', () => {
    const group = [{ id: 0, correct: true, scores: [0.95, 0.95, 0.1] }, { id: 1, correct: true, scores: [0.6, 0.6, 0.6] }];
    expect(keptIds(group, { m: 1, aggregate: 'mean' })).toEqual([0]);
    expect(keptIds(group, { m: 1, aggregate: 'min' })).toEqual([1]);
  });
});

describe('POS variant', () => {
  const group = [0.9, 0.8].map((m, i) => r(i, true, m)).concat([0.1, 0.2, 0.3, 0.4, 0.5, 0.6].map((m, i) => r(2 + i, false, m)));

  it('removes a seeded random sample of incorrect rollouts, the same for the same seed', () => {
    const a = decideGroup(group, resolveSettings({ variant: 'pos', seed: 7 }), 'g');
    const b = decideGroup(group, resolveSettings({ variant: 'pos', seed: 7 }), 'g');
    expect(a).toEqual(b);
    expect(a.filter((d) => d.reason === 'dropped-random').length).toBe(4);
    expect(a.filter((d) => d.id < 2).every((d) => d.kept)).toBe(true);
  });

  it('different seeds draw differently (over a few seeds)', () => {
    const draws = new Set([1, 2, 3, 4, 5, 6].map((seed) => keptIds(group, { variant: 'pos', seed }).join(',')));
    expect(draws.size).toBeGreaterThan(1);
  });
});

describe('properties', () => {
  const member = fc.record({ correct: fc.boolean(), h: fc.integer({ min: 0, max: 40 }), mean: fc.double({ min: 0, max: 1, noNaN: true }) });
  const groupArb = fc.array(member, { minLength: 1, maxLength: 16 });

  it('kept count is min(n, m) for binary-outcome groups, for both variants and any m', () => {
    fc.assert(
      fc.property(groupArb, fc.integer({ min: 0, max: 12 }), fc.constantFrom('both', 'pos'), (ms, m, variant) => {
        const group = ms.map((x, i) => r(i, x.correct, x.mean, x.h));
        const d = decideGroup(group, resolveSettings({ m, variant: variant as 'both' | 'pos' }));
        expect(d.filter((x) => x.kept).length).toBe(Math.min(group.length, m));
        expect(d.length).toBe(group.length);
        expect(new Set(d.map((x) => x.id)).size).toBe(group.length);
      }),
    );
  });

  it('the split maximises k+·k− among splits that fit the group (when no class runs out)', () => {
    fc.assert(
      fc.property(groupArb, fc.integer({ min: 1, max: 12 }), (ms, m) => {
        const group = ms.map((x, i) => r(i, x.correct, x.mean, 4));
        const nPlus = ms.filter((x) => x.correct).length;
        const nMinus = ms.length - nPlus;
        if (m >= ms.length) return;
        const d = decideGroup(group, resolveSettings({ m }));
        const kPlus = d.filter((x, i) => x.kept && ms[i]!.correct).length;
        let best = -1;
        for (let k = Math.max(0, m - nMinus); k <= Math.min(m, nPlus); k++) best = Math.max(best, k * (m - k));
        expect(kPlus * (m - kPlus)).toBe(best);
      }),
    );
  });
});
