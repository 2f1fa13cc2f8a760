/**
 * Text that a naive pattern matcher reads as a false equation but a person reads as fine. Each must
 * stay silent: a step may score high (its real claims hold) or neutral, never low.
 */
import { describe, expect, it } from 'vitest';
import { createCheckerScorer } from '../../../../../src/scoring/scorers/checker/checkerScorer';

const scorer = createCheckerScorer();

async function isFlagged(step: string): Promise<boolean> {
  const [r] = await scorer.score([{ id: 0, prompt: '', steps: [step] }]);
  if (r?.kind !== 'scored') throw new Error('expected scores');
  return r.scores.some((s) => s !== null && s < 0.5);
}

const TRAPS: Record<string, string[]> = {
  'chained equalities': [
    'So a = 5 + 3 = 8.',
    '16 - 3 = 13 - 4 = 9 eggs are left.',
    'Total: 5 × 3 = 15 + 2 = 17.',
    '2 + 2 = 4 × 2 = 8',
    'Cost = 3 * 4 = 12 dollars + 5 dollars tax = 17 dollars.',
  ],
  'rounding and approximations': [
    '3.14159 ≈ 3.14',
    '10 / 3 = 3.33 cups',
    '2 / 3 = 0.66',
    '100 / 7 = 14.29',
    '10 / 3 = 4 buses are needed.',
    'Each gets 7 / 2 = 3 whole cookies.',
    '1000 * (1 + 0.05)^3 = 1157.63',
    '$\\pi \\cdot 3^2 \\approx 28.27$',
    '$\\sqrt{2} = 1.414$',
    '<<2/3=0.6666666666666666>>0.67',
    '<<0.1+0.2=0.30000000000000004>>',
    '$\\frac{22}{7} \\approx \\pi$',
  ],
  'units, money, percentages': [
    '5 cm × 3 = 15 cm',
    'A run of 2 hours × 60 = 120 minutes.',
    'She pays $2 × 3 = $6.',
    '\\$2 + \\$3 = \\$5',
    '£3 + £4 = £7',
    '15/60 * 100 = 25%',
    '3 / 4 = 75%',
    '50 + 10% = 55',
    'The price rose by 20% = $10.',
    '<<10/100=0.1>>10 percent of the class',
    '3 * 1000 = 3 thousand',
    '1 hour = 60 minutes',
    '1.5 hours = 90 minutes',
    'So 1 in 4 = 1/4 of them.',
  ],
  'times, dates, ratios, ranges': [
    '2:30 + 15 = 2:45',
    'The ratio 3:4 = 6:8.',
    'The ratio is 3 : 4 = 3/4 = 0.75',
    'She works 9-5 = 8 hours.',
    'Pages 3-7 = 5 pages.',
    'On 2023-01-05 = a Thursday.',
    '360 - 480 = $<<360-480=-120>>120 less revenue.',
  ],
  'variables and equations to solve': [
    '2x + 3 = 7',
    'Let x = 5. Then x + 2 = 7.',
    'x + 2 = 9, so x = 7.',
    '$3p + e = 124$ and $5p + e = 182$.',
    '$5p+e-3p-e=1.82-1.24$.',
    'f(2) = 2^2 + 1 = 5',
    'P(A) = 0.5 * 0.5 = 0.25',
    '$a_1 = 3, a_2 = 3 + 2 = 5$',
    'y -3 + 2 = 5',
    '2(x + 3) = 14',
    '$x^2 = 9 \\Rightarrow x = 3$',
  ],
  'inequalities and other relations': [
    '3 + 4 < 8',
    '3 + 4 <= 8',
    'a == b + 1',
    '7 ≥ 3 + 2',
    '$3 + 4 \\le 8$',
    '$17 \\equiv 2 \\pmod 5$',
    '3 + 4 = 2 mod 5',
    '17 / 5 = 3 R 2',
  ],
  'words, URLs, code': [
    'See https://example.com/?a=1+2&b=3 for details.',
    'arr[3] = 7',
    'H2O = water',
    'for i=1 to 10',
    'CO2 = 44 g/mol',
    'twice 5 + 1 = 11',
    'half of 10 + 2 = 7',
    '5 more than 3 × 2 = 11',
    'The sum of 3 and 4 + 5 = 12.',
    '1 + 2 + ... + 10 = 55',
    'log 8 / log 2 = 3',
  ],
  'list numbering and line breaks': [
    '1. 3 + 4 = 7',
    '2) 10 - 4 = 6',
    '- 5 + 5 = 10',
    'Answer: 5\n3 + 4 = 7',
    '16 -\n3 = 13',
    'The total is 3\n+ 4 = 7',
    'We have 3 apples.\n2 + 2 = 4',
  ],
  'LaTeX': [
    '$\\left(\\frac{1}{2}\\right)^2 = \\frac{1}{4}$',
    '$\\frac{5}{2} = 2.5 = 2\\frac{1}{2}$',
    '$45^\\circ + 45^\\circ = 90^\\circ$',
    '$5 \\cdot 2 \\text{ cm} = 10 \\text{ cm}$',
    '$2.5\\text{ hours} \\times 60 = 150\\text{ minutes}$',
    '$12,\\!000 + 5 = 12,\\!005$',
    '$85 \\mod 7 = 1$',
    '\\begin{align*} 3 + 4 &= 7 \\\\ &= 7 \\end{align*}',
    '$\\log_2 8 = 3$',
    '$e^2 = 7.39$',
    '$\\sin 30^\\circ = 0.5$',
    '$1 + 2 + \\cdots + 10 = 55$',
    '$58_9=5\\cdot 9^1+8\\cdot 9^0=53$',
  ],
  'prose punctuation': [
    'Wow, 3 + 4 = 7!',
    '(which is 3 + 4 = 7)',
    '"3 + 4 = 7," she said.',
    'It costs $5. That is $2 more than 3 = 5 yesterday.',
  ],
};

describe('checker stays silent on false-alarm traps', () => {
  for (const [group, steps] of Object.entries(TRAPS)) {
    it.each(steps)(`${group}: %s`, async (step) => {
      expect(await isFlagged(step)).toBe(false);
    });
  }
});
