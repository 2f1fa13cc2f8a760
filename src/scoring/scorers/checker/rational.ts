/**
 * Exact rational arithmetic on BigInt numerators and denominators. Claims such as
 * `0.1 + 0.2 = 0.3` or `10 / 4 = 2.5` must be decided without floating-point noise, and a checker
 * that cries wolf over rounding error would be worse than none.
 */

/** A reduced fraction with a positive denominator. */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

/** Operations whose results would be irrational, enormous or undefined fail with this error. */
export class NotExactError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'NotExactError';
  }
}

/** Bits allowed in a numerator or denominator: far beyond any step's arithmetic, short of a hang. */
const MAX_BITS = 4096n;

const ZERO_R: Rational = { num: 0n, den: 1n };

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function bitLength(n: bigint): bigint {
  return BigInt((n < 0n ? -n : n).toString(2).length);
}

/** |n| ≥ 2^MAX_BITS, i.e. more than MAX_BITS bits, without writing the number out in binary. */
const TOO_LARGE = 1n << MAX_BITS;
function tooLarge(n: bigint): boolean {
  return n >= TOO_LARGE || -n >= TOO_LARGE;
}

/** Build a reduced rational; throws on a zero denominator or an absurd size. */
export function rational(num: bigint, den = 1n): Rational {
  if (den === 0n) throw new NotExactError('division by zero');
  if (num === 0n) return ZERO_R;
  const sign = den < 0n ? -1n : 1n;
  const g = gcd(num, den);
  const r = { num: (sign * num) / g, den: (sign * den) / g };
  if (tooLarge(r.num) || tooLarge(r.den)) throw new NotExactError('too large');
  return r;
}

/**
 * Parse a plain decimal literal (`12`, `0.75`, `.5`, `1,234.5`). Thousands separators are taken
 * as written; the caller decides whether a comma is one.
 */
export function parseDecimal(text: string): Rational {
  const clean = text.replace(/,/g, '');
  const match = /^(\d*)(?:\.(\d*))?$/.exec(clean);
  if (!match || clean === '' || clean === '.') throw new NotExactError(`not a number: ${text}`);
  const whole = match[1] ?? '';
  const frac = match[2] ?? '';
  return rational(BigInt(`${whole}${frac}` || '0'), 10n ** BigInt(frac.length));
}

export function add(a: Rational, b: Rational): Rational {
  return rational(a.num * b.den + b.num * a.den, a.den * b.den);
}

export function sub(a: Rational, b: Rational): Rational {
  return rational(a.num * b.den - b.num * a.den, a.den * b.den);
}

export function mul(a: Rational, b: Rational): Rational {
  return rational(a.num * b.num, a.den * b.den);
}

export function div(a: Rational, b: Rational): Rational {
  return rational(a.num * b.den, a.den * b.num);
}

export function neg(a: Rational): Rational {
  return rational(-a.num, a.den);
}

export function abs(a: Rational): Rational {
  return a.num < 0n ? neg(a) : a;
}

export function isInteger(a: Rational): boolean {
  return a.den === 1n;
}

export function equals(a: Rational, b: Rational): boolean {
  return a.num === b.num && a.den === b.den;
}

/** −1, 0 or 1. */
export function compare(a: Rational, b: Rational): number {
  const d = a.num * b.den - b.num * a.den;
  return d === 0n ? 0 : d < 0n ? -1 : 1;
}

/** 10^-digits as a rational. */
export function tenToMinus(digits: number): Rational {
  return rational(1n, 10n ** BigInt(digits));
}

/** Exact integer k-th root of a non-negative integer, or null when there is none. */
function integerRoot(n: bigint, k: bigint): bigint | null {
  if (n < 0n) return null;
  if (n < 2n) return n;
  const approx = BigInt(Math.round(Number(n) ** (1 / Number(k))));
  for (const candidate of [approx - 1n, approx, approx + 1n]) {
    if (candidate >= 0n && candidate ** k === n) return candidate;
  }
  if (bitLength(n) < 50n) return null;
  let lo = 0n;
  let hi = 1n << (bitLength(n) / k + 1n);
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n;
    if (mid ** k <= n) lo = mid;
    else hi = mid - 1n;
  }
  return lo ** k === n ? lo : null;
}

/** a^b for rational b; exact roots only (`8^(1/3)` works, `2^(1/2)` throws). */
export function pow(base: Rational, exponent: Rational): Rational {
  if (exponent.den > 64n) throw new NotExactError('irrational power');
  const p = exponent.num < 0n ? -exponent.num : exponent.num;
  if (p > 10_000n || bitLength(base.num) * p > MAX_BITS || bitLength(base.den) * p > MAX_BITS) {
    throw new NotExactError('too large');
  }
  let root = base;
  if (exponent.den !== 1n) {
    if (base.num < 0n) throw new NotExactError('root of a negative number');
    const n = integerRoot(base.num, exponent.den);
    const d = integerRoot(base.den, exponent.den);
    if (n === null || d === null) throw new NotExactError('irrational root');
    root = rational(n, d);
  }
  const raised = rational(root.num ** p, root.den ** p);
  return exponent.num < 0n ? div(rational(1n), raised) : raised;
}

/** n! for a small non-negative integer. */
export function factorial(a: Rational): Rational {
  if (!isInteger(a) || a.num < 0n || a.num > 300n) throw new NotExactError('factorial out of range');
  let out = 1n;
  for (let k = 2n; k <= a.num; k++) out *= k;
  return rational(out);
}

/** Decimal places needed to write the value exactly, or null when its expansion never ends. */
export function terminatingDecimals(a: Rational): number | null {
  let d = a.den;
  let twos = 0;
  let fives = 0;
  while (d % 2n === 0n) {
    d /= 2n;
    twos++;
  }
  while (d % 5n === 0n) {
    d /= 5n;
    fives++;
  }
  return d === 1n ? Math.max(twos, fives) : null;
}

/** A short human form: `13`, `3.5`, `-0.125`, or `10/3 ≈ 3.3333` when the decimal never ends. */
export function formatRational(a: Rational): string {
  const places = terminatingDecimals(a);
  if (places !== null && places <= 8) return toFixed(a, places);
  return `${a.num}/${a.den} ≈ ${toFixed(a, 4)}`;
}

function toFixed(a: Rational, places: number): string {
  const scale = 10n ** BigInt(places);
  const negative = a.num < 0n;
  const scaled = ((negative ? -a.num : a.num) * scale * 2n + a.den) / (2n * a.den);
  const digits = scaled.toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const frac = places > 0 ? `.${digits.slice(digits.length - places)}` : '';
  return `${negative && scaled !== 0n ? '-' : ''}${whole}${frac}`;
}

/** Closest double, for comparisons with values the CAS returns. */
export function toNumber(a: Rational): number {
  return Number(a.num) / Number(a.den);
}
