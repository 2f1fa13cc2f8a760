/**
 * Plain numbers as answers are written: integers, decimals, fractions (`3/4`, `\frac{3}{4}`,
 * `2/(-3)`), mixed numbers (`918\frac{1}{2}`). Compared exactly, as rationals, so `16386.17` and
 * `16386.16` differ however close they are.
 */

/** A number held as the rational `num / den`. */
export interface ParsedNumber {
  num: number;
  den: number;
  /** Digits after the decimal point when written as a decimal; 0 for an integer; null for a fraction. */
  decimals: number | null;
}

/**
 * Decimal places from which a decimal counts as a rounding of an exact value that has no finite
 * decimal expansion (`0.0833` for `\frac{1}{12}`). Below it (`0.33` for `\frac13`) graders differ,
 * and a short decimal is more often a wrong answer than a rounded right one.
 */
export const ROUNDING_MIN_DECIMALS = 3;

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^([+-]?)(\d*)\.(\d+)$/;
const SLASH_FRACTION = /^([+-]?)\(?([+-]?\d+)\)?\/\(?([+-]?\d+)\)?$/;
const TEX_FRACTION = /^([+-]?)\\frac\{([+-]?\d+)\}\{([+-]?\d+)\}$/;
const MIXED = /^([+-]?)(\d+)\\frac\{(\d+)\}\{(\d+)\}$/;

/** Parses `text` (normalised, no spaces) as a plain number, or returns null. */
export function parseNumber(text: string): ParsedNumber | null {
  if (INTEGER.test(text)) return { num: Number(text), den: 1, decimals: 0 };
  const decimal = DECIMAL.exec(text);
  if (decimal !== null) {
    const [, sign = '', whole = '', frac = ''] = decimal;
    const den = 10 ** frac.length;
    const num = Number(whole || '0') * den + Number(frac);
    return { num: sign === '-' ? -num : num, den, decimals: frac.length };
  }
  const fraction = SLASH_FRACTION.exec(text) ?? TEX_FRACTION.exec(text);
  if (fraction !== null) {
    const [, sign = '', n = '', d = ''] = fraction;
    return signed(sign, Number(n), Number(d));
  }
  const mixed = MIXED.exec(text);
  if (mixed !== null) {
    const [, sign = '', whole = '', n = '', d = ''] = mixed;
    return signed(sign, Number(whole) * Number(d) + Number(n), Number(d));
  }
  return null;
}

function signed(sign: string, num: number, den: number): ParsedNumber | null {
  if (den === 0) return null;
  const s = (sign === '-' ? -1 : 1) * Math.sign(den);
  return { num: s * num, den: Math.abs(den), decimals: null };
}

/** The value as a float. */
export function numberValue(n: ParsedNumber): number {
  return n.num / n.den;
}

/** Exact equality, or a decimal of enough places that rounds an exact value without a finite expansion. */
export function numbersEqual(a: ParsedNumber, b: ParsedNumber): boolean {
  const left = a.num * b.den;
  const right = b.num * a.den;
  if (Number.isSafeInteger(left) && Number.isSafeInteger(right)) {
    if (left === right) return true;
  } else if (relativeClose(numberValue(a), numberValue(b), 1e-12)) return true;
  return roundsTo(a, b) || roundsTo(b, a);
}

function roundsTo(exact: ParsedNumber, decimal: ParsedNumber): boolean {
  if (exact.decimals !== null || decimal.decimals === null) return false;
  if (decimal.decimals < ROUNDING_MIN_DECIMALS || terminates(exact)) return false;
  return withinRounding(numberValue(exact), numberValue(decimal), decimal.decimals);
}

/** Whether `value` rounded to `places` decimals gives `decimal` (with float slack). */
export function withinRounding(value: number, decimal: number, places: number): boolean {
  return Math.abs(value - decimal) <= 0.5 * 10 ** -places * (1 + 1e-9);
}

/** Whether the fraction has a finite decimal expansion (its reduced denominator has no prime but 2 and 5). */
function terminates(n: ParsedNumber): boolean {
  let d = n.den / gcd(Math.abs(n.num), n.den);
  while (d % 2 === 0 && d > 1) d /= 2;
  while (d % 5 === 0 && d > 1) d /= 5;
  return d === 1;
}

/** |a − b| within `rel` of the larger magnitude (absolute near zero). */
export function relativeClose(a: number, b: number, rel: number): boolean {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));
}

function gcd(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) [x, y] = [y, x % y];
  return x === 0 ? 1 : x;
}
