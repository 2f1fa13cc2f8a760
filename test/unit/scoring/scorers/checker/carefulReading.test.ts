/**
 * Misreadings found on a real verl dump, each read the way a careful reader would: a parenthesised
 * annotation or quantity label is not an operand, a parenthetical `(+ 20)` is not a factor, a
 * rounded decimal beside an exact fraction is not false (the tolerance follows the digits written).
 * And the same readings must not hide a real slip.
 */
import { describe, expect, it } from 'vitest';
import { createCheckerScorer } from '../../../../../src/scoring/scorers/checker/checkerScorer';

const scorer = createCheckerScorer({ useCas: false });

async function checked(step: string): Promise<{ score: number | null; note: string | null }> {
  const [r] = await scorer.score([{ id: 0, prompt: '', steps: [step] }]);
  if (r?.kind !== 'scored') throw new Error('expected scores');
  return { score: r.scores[0] ?? null, note: r.notes?.[0] ?? null };
}

describe('the checker reads claims as a careful reader would', () => {
  it.each([
    // "($5) = $65 is false" before: the label of the last item was read as the whole sum.
    'Video game ($60) + candy ($5) = $65',
    "Val's points (16) = 24",
    "Kim's points (16) + Val's (8) = 24 points in all.",
    // 16 + 16 (+ 20) was read as 16 + 16 × 20 = 336.
    'So Val has 16 + 16 (+ 20) = 52 points.',
    // 8/3 written as 2.67 is a rounding, not an error.
    '9 + 8/3 = 9 + 2.67',
    'The total is 9 + 8/3 = 9 + 2.67 = 11.67 hours.',
    '10 / 3 = 3 + 0.33',
    '2 × 1.33 = 8/3',
  ])('stays silent on %s', async (step) => {
    const { score, note } = await checked(step);
    expect(score).toBe(0.9);
    expect(note ?? '').not.toContain('false');
  });

  it.each([
    ['9 + 8/3 = 9 + 2.5', '9 + 8/3 = 9 + 2.5 is false (35/3 ≈ 11.6667 vs 11.5)'],
    // 12.5 needs one decimal: nothing was rounded, the 0.49 is wrong.
    ['16 - 3.5 = 12 + 0.49', '16 - 3.5 = 12 + 0.49 is false (12.5 vs 12.49)'],
    ['Video game ($60) + candy ($5), so 60 + 5 = 75 dollars.', '60 + 5 = 75 is false (65)'],
    ['She buys 3 × 4 = 13 apples (+ 2 spare).', '3 × 4 = 13 is false (12)'],
  ])('still catches %s', async (step, expected) => {
    const { score, note } = await checked(step);
    expect(score).toBe(0.05);
    expect(note).toBe(expected);
  });

  it('caps a long list of false claims with a count', async () => {
    const step = Array.from({ length: 49 }, (_, k) => `${k} + 1 = ${k + 5}.`).join(' ');
    const { note } = await checked(step);
    expect(note).toBe('0 + 1 = 5 is false (1); 1 + 1 = 6 is false (2); 2 + 1 = 7 is false (3) … and 46 more');
  });
});
