/**
 * Ties: a rollout PROF removes while an equally consistent rollout of its class is kept was removed
 * by file order, and says so (`dropped-tie`); the kept/dropped bits are the reference's.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TIE_TOLERANCE, type RankInput } from '../../../../src/core/rules/profMath';
import { decideGroup } from '../../../../src/core/rules/decideList';
import { resolveSettings } from '../../../../src/core/profSettings';

function r(id: number, correct: boolean, mean: number, h = 4): RankInput {
  return { id, correct, scores: Array.from({ length: h }, () => mean) };
}

function reasons(group: RankInput[], settings = {}): string[] {
  return decideGroup(group, resolveSettings(settings)).map((d) => (d.kept ? 'kept' : d.reason));
}

describe('ties in every class', () => {
  it('an all-equal correct group: the dropped ones are ties, the earliest removed first', () => {
    const group = [0, 1, 2, 3, 4, 5].map((i) => r(i, true, 0.9));
    expect(reasons(group)).toEqual(['dropped-tie', 'dropped-tie', 'kept', 'kept', 'kept', 'kept']);
  });

  it('an all-equal incorrect group: the same', () => {
    const group = [0, 1, 2, 3, 4].map((i) => r(i, false, 0.7));
    expect(reasons(group, { m: 2 })).toEqual(['dropped-tie', 'dropped-tie', 'dropped-tie', 'kept', 'kept']);
  });

  it('ties straddling the cut: only the tied ones say tie; below the tie it is the scores', () => {
    const group = [r(0, true, 0.5), r(1, true, 0.9), r(2, true, 0.5), r(3, true, 0.2), r(4, true, 0.5)];
    // m = 2 keeps .9 and one .5 (the last); the earlier .5s go by file order, the .2 by its scores.
    expect(reasons(group, { m: 2 })).toEqual(['dropped-tie', 'kept', 'dropped-tie', 'dropped-low-consistency', 'kept']);
    // m = 3: the .2 and the first .5 go; that .5 tied with two kept ones.
    expect(reasons(group, { m: 3 })).toEqual(['dropped-tie', 'kept', 'kept', 'dropped-low-consistency', 'kept']);
  });

  it('incorrect ties straddling the cut; a tie wholly removed is no tie-break', () => {
    const group = [r(0, false, 0.6), r(1, false, 0.6), r(2, false, 0.6), r(3, false, 0.1), r(4, true, 0.9)];
    expect(reasons(group, { m: 3 })).toEqual(['dropped-tie', 'dropped-tie', 'kept', 'kept', 'kept']);
    // Both .6s go: nothing of equal consistency is kept, so the scores decided.
    const both = [r(0, true, 0.9), r(1, true, 0.8), r(2, false, 0.6), r(3, false, 0.6), r(4, false, 0.1)];
    expect(reasons(both, { m: 3 })).toEqual(['kept', 'kept', 'dropped-conflict', 'dropped-conflict', 'kept']);
  });

  it('penalised ties: two equally penalised rollouts, one kept, the other dropped by file order', () => {
    const group = [r(0, true, 0.9, 1), r(1, true, 0.9, 1), r(2, true, 0.9, 1)];
    expect(reasons(group, { m: 1 })).toEqual(['dropped-tie', 'dropped-tie', 'kept']);
    // A penalised rollout below a kept unpenalised one is dropped for the penalty, not a tie.
    expect(reasons([r(0, true, 0.9, 1), r(1, true, 0.9, 4)], { m: 1 })).toEqual(['dropped-step-penalty', 'kept']);
  });

  it('consistencies that differ only by rounding are a tie', () => {
    const group: RankInput[] = [{ id: 0, correct: true, scores: [0.1, 0.2, 0.3] }, { id: 1, correct: true, scores: [0.2, 0.2, 0.2] }];
    expect(reasons(group, { m: 1 })).toContain('dropped-tie');
    expect(reasons([r(0, true, 0.5), r(1, true, 0.5 + 10 * TIE_TOLERANCE)], { m: 1 })).toEqual(['dropped-low-consistency', 'kept']);
  });

  it('a random (POS) or whole-group removal is not a tie', () => {
    const group = [r(0, true, 0.9), r(1, false, 0.5), r(2, false, 0.5), r(3, false, 0.5), r(4, false, 0.5), r(5, false, 0.5)];
    expect(reasons(group, { variant: 'pos', seed: 3 }).filter((x) => x !== 'kept')).toEqual(['dropped-random', 'dropped-random']);
    expect(reasons([r(0, true, 0.5), r(1, true, 0.5)], { remove: 2 })).toEqual(['dropped-group-too-small', 'dropped-group-too-small']);
  });
});

describe('ties as a property', () => {
  const member = fc.record({ correct: fc.boolean(), h: fc.integer({ min: 0, max: 35 }), mean: fc.constantFrom(0.1, 0.5, 0.5, 0.9, 0.9, 0.9) });
  const groupArb = fc.array(member, { minLength: 1, maxLength: 14 });

  it('dropped-tie exactly when a kept rollout of the same class has the same consistency', () => {
    fc.assert(
      fc.property(groupArb, fc.integer({ min: 0, max: 10 }), (ms, m) => {
        const group = ms.map((x, i) => r(i, x.correct, x.mean, x.h));
        const decisions = decideGroup(group, resolveSettings({ m }));
        decisions.forEach((d, i) => {
          const twin = decisions.some((o, j) => o.kept && ms[j]!.correct === ms[i]!.correct && Math.abs(o.consistency! - d.consistency!) <= TIE_TOLERANCE);
          if (d.reason === 'dropped-tie') expect(twin).toBe(true);
          if (['dropped-low-consistency', 'dropped-conflict', 'dropped-step-penalty'].includes(d.reason)) expect(twin).toBe(false);
        });
      }),
    );
  });
});

describe('ties in large groups (marking them was quadratic: 40k ties took 4.5 s, 100k 36 s)', () => {
  it('a group of 200,000 tied rollouts is decided in seconds, every removal a tie-break', () => {
    const group = Array.from({ length: 200_000 }, (_, i) => r(i, i % 2 === 0, 0.5, 3));
    const started = performance.now();
    const decisions = decideGroup(group, resolveSettings({ m: 4 }));
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeLessThan(10);
    expect(decisions.filter((d) => d.kept)).toHaveLength(4);
    expect(decisions.filter((d) => d.reason === 'dropped-tie')).toHaveLength(199_996);
    // The earliest rollouts are removed first: the kept ones are the last two of each class.
    expect(decisions.flatMap((d, i) => (d.kept ? [i] : []))).toEqual([199_996, 199_997, 199_998, 199_999]);
  });

  it('the group view\'s what-if (webview code) re-decides 50,000 tied rows in seconds', async () => {
    const { recompute } = await import('../../../../webview/groupModel');
    const settings = resolveSettings({});
    const rows = Array.from({ length: 50_000 }, (_, i) => ({
      id: i, outcome: i % 2 === 0 ? 'correct' : 'incorrect', stepScores: [0.5, 0.5, 0.5], stepNotes: [],
      decision: { id: i, kept: false, reason: 'dropped-tie', steps: 3, score: 0.5, consistency: 0.5, penalised: false, rank: 1 },
    }));
    const started = performance.now();
    const view = recompute({ group: 'g', settings, rows } as unknown as Parameters<typeof recompute>[0], { ...settings, m: 2 });
    expect((performance.now() - started) / 1000).toBeLessThan(10);
    expect(view.filter((v) => v.decision.kept)).toHaveLength(2);
    expect(view.filter((v) => v.decision.reason === 'dropped-tie')).toHaveLength(49_998);
  });
});
