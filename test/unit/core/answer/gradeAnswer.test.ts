import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { gradeFast, loadAnswerGrader, type AnswerGrader } from '../../../../src/core/answer/gradeAnswer';
import { readFixtureJsonl } from './fixtureData';

let grader: AnswerGrader;
beforeAll(async () => {
  grader = await loadAnswerGrader();
});

const equal = (pred: string, gold: string): boolean | null => grader.grade(pred, gold).equal;

describe('normalisations graders agree on', () => {
  it.each([
    ['7,425,000', '7425000'],
    ['1 000', '1000'],
    ['\\dfrac{3}{4}', '\\frac34'],
    ['\\tfrac{1}{2}', '0.5'],
    ['15\\text{ cm}^2', '15'],
    ['64 square feet', '64'],
    ['90^\\circ', '90'],
    ['72°', '72'],
    ['\\$10', '10'],
    ['$x = 5$', '5'],
    ['y = 3', '3'],
    ['\\left( 3, \\frac{\\pi}{2} \\right)', '(3, \\frac{\\pi}{2})'],
    ['18.', '18'],
    ['\\text{(B)}', 'B'],
    ['(B)', 'B'],
    ['918\\frac{1}{2}', '918.5'],
    ['0.75', '\\frac34'],
    ['2\\sqrt{2}', '\\sqrt{8}'],
    ['\\frac94\\pi', '\\frac{9}{4}\\pi'],
    ['\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}', '\\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}'],
  ])('%s equals %s', (pred, gold) => {
    expect(equal(pred, gold)).toBe(true);
  });
});

describe('shapes', () => {
  it('sets ignore order, tuples do not', () => {
    expect(equal('\\{1,2\\}', '\\{2,1\\}')).toBe(true);
    expect(equal('(1,2)', '(2,1)')).toBe(false);
    expect(equal('(1,2)', '(1,2)')).toBe(true);
  });

  it('intervals keep open and closed ends apart', () => {
    expect(equal('[1,2)', '[1,2)')).toBe(true);
    expect(equal('[1,2)', '[1,2]')).toBe(false);
    expect(equal('(0, \\infty)', '(0,+\\infty)')).toBe(true);
    expect(equal('[-1, -\\tfrac12) \\cup (0, 1)', '(0,1) \\cup [-1,-\\frac{1}{2})')).toBe(true);
  });

  it('reads a \\pm answer as its two values', () => {
    expect(equal('1 \\pm \\sqrt{19}', '1+\\sqrt{19}, 1-\\sqrt{19}')).toBe(true);
    expect(equal('2021', '\\pm 2021')).toBe(false);
  });
});

describe('numbers', () => {
  it('compares written decimals exactly: a cent is a different answer', () => {
    expect(equal('16386.16', '16386.17')).toBe(false);
    expect(equal('5.001', '5')).toBe(false);
    expect(equal('1000.0', '1000')).toBe(true);
  });

  it('accepts a decimal of three or more places that rounds an exact value', () => {
    expect(equal('0.0833', '\\frac{1}{12}')).toBe(true);
    expect(equal('4.1231', '\\sqrt{17}')).toBe(true);
    expect(equal('0.33', '\\frac13')).toBe(false);
  });

  it('treats a percentage as its number, or its number divided by 100', () => {
    expect(equal('10\\%', '10')).toBe(true);
    expect(equal('10\\%', '0.1')).toBe(true);
    expect(equal('10', '0.1')).toBe(false);
  });
});

describe('algebra', () => {
  it('decides polynomial and trigonometric identities by evaluation', () => {
    expect(equal('x^2-1', '(x-1)(x+1)')).toBe(true);
    expect(equal('x^2+2x+1', 'x^3+2x+1')).toBe(false);
    expect(equal('\\sec^2(y)', '\\tan^2(y)+1')).toBe(true);
  });

  it('compares equations and inequalities up to scaling and flipping', () => {
    expect(equal('y=-\\frac{1}{2}x+\\frac{3}{4}', '2x+4y-3=0')).toBe(true);
    expect(equal('-x > -1', 'x < 1')).toBe(true);
    expect(equal('x \\le 5', 'x \\ge 5')).toBe(false);
    expect(equal('0', 'a + 3z = 0')).toBe(false);
  });
});

describe('robustness', () => {
  it('extracts the answer from a whole solution on either side', () => {
    expect(equal('Adding up, the total is $\\boxed{42}$.', 'The sum is \\boxed{42}')).toBe(true);
    expect(equal('Step 5: 260 * 52 = 13520. The answer is: 13520 ки', '13520')).toBe(true);
  });

  it('says the prediction has no answer rather than guessing', () => {
    expect(grader.grade('I am not sure how to proceed with this problem.', '5')).toEqual({
      equal: false,
      method: 'no-answer',
    });
  });

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), (pred, gold) => {
        const verdict = grader.grade(`\\frac{${pred}`, gold);
        expect([true, false, null]).toContain(verdict.equal);
      }),
      { numRuns: 200 },
    );
  });

  it('caches by (pred, gold) and can be told not to', async () => {
    const cached = await loadAnswerGrader();
    cached.grade('\\frac{1}{2}', '0.5');
    cached.grade('\\frac{1}{2}', '0.5');
    expect(cached.cacheSize()).toBe(1);
    const uncached = await loadAnswerGrader({ cache: false });
    uncached.grade('\\frac{1}{2}', '0.5');
    expect(uncached.cacheSize()).toBe(0);
  });
});

describe('gradeFast', () => {
  it('decides plain numbers and strings, and defers algebra', () => {
    expect(gradeFast('7,425,000', '7425000')).toEqual({ equal: true, method: 'normalized' });
    expect(gradeFast('12', '13')).toEqual({ equal: false, method: 'normalized' });
    expect(gradeFast('x^2-1', '(x-1)(x+1)')).toBeNull();
  });
});

describe('grading GSM8K model solutions against the reference solution', () => {
  interface Row {
    ground_truth: string;
    [model: string]: { solution: string; is_correct: boolean } | string;
  }
  const rows = readFixtureJsonl<Row>('gsm8k_openai_example_model_solutions_first120.jsonl');

  it('agrees with the dataset\'s is_correct label on every solution', () => {
    let disagreements = 0;
    for (const row of rows) {
      for (const [model, entry] of Object.entries(row)) {
        if (typeof entry === 'string' || model === 'question') continue;
        if (equal(entry.solution, row.ground_truth) !== entry.is_correct) disagreements++;
      }
    }
    expect(disagreements).toBe(0);
  });
});
