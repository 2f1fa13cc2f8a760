/**
 * The single-pass checker finds the same claims and gives the same verdicts as the checker before
 * it (kept frozen in test/bench/checkerBefore as the benchmark's baseline): on every text of the
 * fixtures, on those texts with numbers changed, and on random texts built from the pieces where
 * claim finding is delicate (words read as operators, look-alike relations, money, superscripts,
 * thousands commas, math delimiters, letters outside the BMP, lone surrogates, line breaks).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { judgeStep } from '../../../../../src/scoring/scorers/checker/stepCheck';
import { judgeStep as judgeStepBefore } from '../../../../bench/checkerBefore/stepCheck';
import { fixtureFiles, textPool } from '../../../cli/corpusDumps';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));

const PIECES = [
  ' ', '  ', '\n', '\n\n', '\t', '\u00a0', '=', '==', '<=', '>=', '!=', ':=', '=>', '=<', '~=', '~', '\u2248', '\u2243', '\u2245',
  '+', '-', '\u2212', '*', '**', '\u00d7', '\u00b7', '/', '\u00f7', '^', '(', ')', '[', ']', '%', '!', '\u221a', '\u00b2', '\u00b3',
  '\u2074', '$', '$ ', '\u20ac', '\u00a3', '.', ',', ':', ';', '?', '"', "'", '\u2019', '\u201c', '_',
  '3', '12', '1,000', '1,000,000', '1,2', '0.5', '.5', '3.14159', '007', '12,34', '1,000,0001', '999999999999999', '12345678901234567',
  'x', 'X', 'of', 'a', 'I', 'times', 'and', 'so', 'we', 'get', 'hundred', 'percent', 'half', 'per', 'to', 'is', 'caf\u00e9', '\u00e9',
  '\ud835\udc65', '\ud83d\ude00', '\ud835', '\udc65', '\u00aa', '\u2071',
  '<<', '>>', '<<3*4=12>>', '\\(', '\\)', '\\[', '\\]', '$$', '\\frac{1}{2}', '\\sqrt{8}', '2\\sqrt{2}', '\\pi', '\\approx', '\\cdot',
  '\\times', '\\text{cm}', '\\begin{align}', '\\end{align}', '&', '\\\\', '{', '}', '\\$', '1.', '2)', '- ', '* ',
];

/** Pieces of short sums, so that random texts often hold claims (`20 % of 50 = 10`, `3 x 4 = 12`). */
const ARITHMETIC = ['3', '4', '12', '20', '50', '1,000', '0.5', '10', '+', '-', '*', '/', 'x', 'X', 'of', '%', '=', '=', '(', ')', 'the', 'so', '$', '\n', '^', '!', '\u2248', '\u00d7', '\u00b2'];

function randomTexts(count: number, seed: number, pieces: readonly string[] = PIECES): string[] {
  let s = seed;
  const rand = (): number => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: count }, () => {
    const n = 3 + Math.floor(rand() * 40);
    let text = '';
    // Half the texts space their pieces (`20 % of 50 = 10`), half glue them (`3x4=12`).
    const gap = rand() < 0.5 ? ' ' : '';
    for (let k = 0; k < n; k++) text += (k > 0 && rand() < 0.7 ? gap : '') + pieces[Math.floor(rand() * pieces.length)];
    return text;
  });
}

function mutated(texts: readonly string[]): string[] {
  return texts.map((t, k) => t.replace(/\d/g, (d, at: number) => ((at + k) % 7 === 0 ? String((Number(d) + 1) % 10) : d)));
}

function same(texts: readonly string[]): void {
  let claims = 0;
  for (const text of texts) {
    const now = judgeStep(text);
    claims += now.length;
    expect(JSON.stringify(now), text).toBe(JSON.stringify(judgeStepBefore(text)));
  }
  expect(claims).toBeGreaterThan(texts.length / 20);
}

/** Hand-written texts where a word reads as an operator or a claim sits next to unusual characters. */
const DELICATE = [
  '20% of 50 = 10', 'so 3/4 of 20 = 15 apples', 'we get 3 x 4 = 12', 'then 2x + 3 = 7', 'caf\u00e9 3 + 4 = 7 caf\u00e9', '\ud835\udc65 = 3 + 4 = 7',
  '\ud83d\ude00 3 + 4 = 8 \ud83d\ude00', 'half of 3 + 4 = 7', '1 in 4 = 1/4', 'so 3 to 4 = 0.75', 'x 3 x 4 = 12 x', 'of 2 of 3 = 6',
  'It costs $5 x 3 = $15 total.', '3 \u00d7 4 = 12 and 12 \u2212 2 = 10', 'a 16 -\n 3 = 13 b', '25% of 80 = 20, and 10% of 80 = 8', "don't 3 + 4 = 7 isn't",
];

describe('the same claims and verdicts as before the single-pass checker', () => {
  const pool = textPool(FIXTURES, fixtureFiles(FIXTURES));
  it('on hand-written delicate texts', () => same(DELICATE));
  it('on every text of the fixtures', () => same(pool));
  it('on the fixtures with numbers changed', () => same(mutated(pool)));
  it('on 10,000 random texts built from delicate pieces', () => same(randomTexts(10_000, 7)));
  it('on 10,000 random short sums', () => same(randomTexts(10_000, 11, ARITHMETIC)));
});
