import { describe, expect, it } from 'vitest';
import { createCheckerScorer, CHECKER_DEFAULTS } from '../../../../../src/scoring/scorers/checker/checkerScorer';
import type { StepScoring } from '../../../../../src/core/model';

const scorer = createCheckerScorer();

async function scoreSteps(steps: string[]): Promise<Extract<StepScoring, { kind: 'scored' }>> {
  const [result] = await scorer.score([{ id: 0, prompt: 'p', steps }]);
  if (result?.kind !== 'scored') throw new Error('expected scores');
  return result;
}

async function verdictOf(step: string): Promise<{ score: number | null | undefined; note: string | null | undefined }> {
  const r = await scoreSteps([step]);
  return { score: r.scores[0], note: r.notes?.[0] };
}

describe('checker scorer: the Scorer contract', () => {
  it('describes itself as the checker', () => {
    expect(scorer.info).toEqual({ kind: 'checker', label: 'checker' });
  });

  it('returns one score and one note per step, in order, for each item', async () => {
    const results = await scorer.score([
      { id: 7, prompt: 'q', steps: ['She has 16 - 3 = 13 eggs.', 'Then 13 * 2 = 27 dollars.', 'So she is happy.'] },
      { id: 8, prompt: 'q', steps: [] },
    ]);
    expect(results).toEqual([
      {
        kind: 'scored',
        scores: [0.9, 0.05, 0.9],
        notes: ['checked: 16 - 3 = 13', '13 * 2 = 27 is false (26)', null],
        scorer: 'checker',
      },
      { kind: 'scored', scores: [], notes: [], scorer: 'checker' },
    ]);
  });

  it('uses the configured scores', async () => {
    const custom = createCheckerScorer({ falseScore: 0, passScore: 0.6 });
    const [r] = await custom.score([{ id: 0, prompt: '', steps: ['2 + 2 = 5', '2 + 2 = 4', 'words'] }]);
    expect(r).toMatchObject({ scores: [0, 0.6, 0.6] });
    expect(CHECKER_DEFAULTS).toEqual({ falseClaim: 0.05, pass: 0.9 });
  });

  it('has two levels: a step with checked arithmetic scores exactly what a step with nothing to check scores', async () => {
    const r = await scoreSteps(['She bakes $4 \\times 12 = 48$ muffins.', 'We subtract what was sold.', '12 × 4 = 47']);
    expect(r.scores).toEqual([CHECKER_DEFAULTS.pass, CHECKER_DEFAULTS.pass, CHECKER_DEFAULTS.falseClaim]);
    // What was verified stays visible, as a note, never as a higher score.
    expect(r.notes).toEqual(['checked: 4 \\times 12 = 48', null, '12 × 4 = 47 is false (48)']);
  });

  it('lists a few verified claims and counts the rest', async () => {
    const { note } = await verdictOf('1 + 1 = 2, 2 + 2 = 4, 3 + 3 = 6, 4 + 4 = 8, 5 + 5 = 10');
    expect(note).toBe('checked: 1 + 1 = 2; 2 + 2 = 4; 3 + 3 = 6 … and 2 more');
  });

  it('reports progress per item and stops when aborted', async () => {
    const seen: number[] = [];
    const items = [1, 2, 3].map((id) => ({ id, prompt: '', steps: ['1 + 1 = 2'] }));
    await scorer.score(items, { onProgress: (done) => seen.push(done) });
    expect(seen).toEqual([1, 2, 3]);
    const controller = new AbortController();
    controller.abort();
    await expect(scorer.score(items, { signal: controller.signal })).rejects.toThrow();
    await scorer.dispose();
    await scorer.dispose();
  });

  it('flags the step that holds the false claim, not its neighbours', async () => {
    const r = await scoreSteps([
      'Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.',
      'She makes 9 * 2 = $<<9*2=18>>18 every day.',
      'Her costs are 5 + 4 = 10 dollars.',
      'So she keeps 18 - 10 = 8 dollars.',
    ]);
    expect(r.scores.map((s) => (s !== null && s < 0.5 ? 'low' : 'ok'))).toEqual(['ok', 'ok', 'low', 'ok']);
    expect(r.notes?.[2]).toBe('5 + 4 = 10 is false (9)');
  });
});

describe('checker scorer: claims it verifies', () => {
  it.each([
    '12 × 7 = 84',
    '16 - 3 - 4 = 9',
    'Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs',
    '$\\frac{3}{4} = 0.75$',
    '$2 \\cdot 3 = 6$',
    '3^2 + 4^2 = 25',
    '$\\sqrt{16} = 4$',
    '20% of 50 = 10',
    '3/4 of 20 = 15',
    '2 x 0.5 = 1.0 bolts',
    '$\\left(3+4\\right)^2 = 49$',
    '$(3-1)! = 2! = 2$',
    '\\[ 12{,}000 \\div 4 = 3{,}000 \\]',
    'The total is 1,250 + 750 = 2,000 dollars.',
    '$\\binom{5}{2} = 10$',
    '$\\sqrt{8} = 2\\sqrt{2}$',
    '0.1 + 0.2 = 0.3',
  ])('holds: %s', async (step) => {
    expect(await verdictOf(step)).toMatchObject({ score: CHECKER_DEFAULTS.pass, note: expect.stringMatching(/^checked: /) });
  });

  it.each([
    ['16 - 3 = 12', '16 - 3 = 12 is false (13)'],
    ['He pays 12 × 7 = 86 dollars.', '12 × 7 = 86 is false (84)'],
    ['There are 20 x 40 = <<20*40=8000>>8000 black seeds.', '20*40=8000 is false (800)'],
    ['$\\frac{3}{4} = 0.57$', '\\frac{3}{4} = 0.57 is false (0.75)'],
    ['$2 \\cdot 3 = 5$', '2 \\cdot 3 = 5 is false (6)'],
    ['3^2 + 4^2 = 49', '3^2 + 4^2 = 49 is false (25)'],
    ['20% of 50 = 15', '20% of 50 = 15 is false (10)'],
    ['She gets <<9*2=18>>19 dollars.', '<<9*2=18>>19 is false (18)'],
    ['$\\binom{5}{2} = 11$', '\\binom{5}{2} = 11 is false (10)'],
    ['3 + 4 = 2 + 6', '3 + 4 = 2 + 6 is false (7 vs 8)'],
    ['10 / 4 = 2.4', '10 / 4 = 2.4 is false (2.5)'],
  ])('false: %s', async (step, note) => {
    expect(await verdictOf(step)).toEqual({ score: 0.05, note });
  });

  it('gives a step with nothing checkable the same score and no note', async () => {
    expect(await verdictOf('We need to find how many eggs are left.')).toEqual({ score: CHECKER_DEFAULTS.pass, note: null });
    expect(await verdictOf('There are 16 eggs and 3 are eaten.')).toEqual({ score: CHECKER_DEFAULTS.pass, note: null });
  });

  it('reports every distinct false claim of a step once, calculator notes first', async () => {
    const { note } = await verdictOf('First 2 + 2 = 5, and 20 x 40 = <<20*40=8000>>8000.');
    expect(note).toBe('20*40=8000 is false (800); 2 + 2 = 5 is false (4)');
  });
});
