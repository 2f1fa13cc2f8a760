import { describe, expect, it } from 'vitest';
import {
  NotExactError, add, div, factorial, formatRational, parseDecimal, pow, rational, terminatingDecimals,
} from '../../../../../src/scoring/scorers/checker/rational';

describe('exact rationals', () => {
  it('parse decimals with thousands separators exactly', () => {
    expect(parseDecimal('1,234.50')).toEqual({ num: 2469n, den: 2n });
    expect(parseDecimal('.5')).toEqual({ num: 1n, den: 2n });
    expect(add(parseDecimal('0.1'), parseDecimal('0.2'))).toEqual(parseDecimal('0.3'));
    expect(() => parseDecimal('1.2.3')).toThrow(NotExactError);
  });

  it('keep exact roots and refuse irrational or huge ones', () => {
    expect(pow(rational(8n), rational(1n, 3n))).toEqual(rational(2n));
    expect(pow(rational(9n, 4n), rational(-1n, 2n))).toEqual(rational(2n, 3n));
    expect(() => pow(rational(2n), rational(1n, 2n))).toThrow(NotExactError);
    expect(() => pow(rational(10n), rational(100000n))).toThrow(NotExactError);
    expect(() => div(rational(1n), rational(0n))).toThrow(NotExactError);
    expect(() => factorial(rational(1n, 2n))).toThrow(NotExactError);
    expect(factorial(rational(5n))).toEqual(rational(120n));
  });

  it('know how many decimals a value needs and show it briefly', () => {
    expect(terminatingDecimals(rational(3n, 8n))).toBe(3);
    expect(terminatingDecimals(rational(1n, 3n))).toBeNull();
    expect(formatRational(rational(13n))).toBe('13');
    expect(formatRational(rational(-1n, 8n))).toBe('-0.125');
    expect(formatRational(rational(10n, 3n))).toBe('10/3 ≈ 3.3333');
  });
});
