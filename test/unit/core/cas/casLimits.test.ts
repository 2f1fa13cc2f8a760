/** What the CAS may see: the bombs a response can hold are refused with a reason; real math is not. */
import { describe, expect, it } from 'vitest';
import { casScreen } from '../../../../src/core/cas/casLimits';

describe('the CAS screen', () => {
  it.each([
    ['9^{9^{9^{9}}}', /power tower/],
    ['\\pi^{9^{9^{9}}}', /power tower/],
    ['9^{9^9}', /power tower whose exponent 9\^9 exceeds 10,000/],
    ['2^3^4', /power tower/],
    ['100000!', /factorial of 100000/],
    ['(100000)!', /factorial of 100000/],
    ['2^{100000}', /exponent of 100000/],
    ['9^999999999', /exponent of 999999999/],
    ['\\binom{1000000}{3}', /binomial coefficient of 1000000/],
    ['\\sum_{n=1}^{1000000} n', /sum or product up to 1000000/],
    ['1'.repeat(400), /more than 300 digits/],
    ['x+'.repeat(600), /1,200 characters long/],
  ])('refuses %s', (latex, reason) => {
    expect(casScreen(latex)).toMatch(reason);
  });

  it.each(['\\frac{3}{4}', '2\\sqrt{2}', 'e^{x^2}', 'e^{-x^2/2}', '2^{2^{10}}', '10^{100}', '5!', '\\binom{5}{2}', '\\pi r^2', 'x^2-1', '\\sum_{k=1}^{10} k'])(
    'lets %s through',
    (latex) => expect(casScreen(latex)).toBeNull(),
  );
});
