/**
 * Rounded decimals inside an expression: `9 + 8/3 = 9 + 2.67` writes 8/3 rounded to two decimals.
 * The tolerance follows the digits written: each decimal of the rounded side may be off by one unit
 * of its last digit (as a lone written number may), so the side spans a range, and the claim holds
 * when the exact side lies strictly inside it and needs more decimals than were written.
 */
import { evaluate, type PercentReading } from './expression';
import { add, compare, parseDecimal, sub, tenToMinus, terminatingDecimals, type Rational } from './rational';
import type { Token } from './tokens';

/** At most this many rounded decimals in one side: 2^k evaluations. */
const MAX_ROUNDED = 4;

/** Operations under which the range's ends need not be at the corners: left unchecked. */
const NOT_MONOTONE: ReadonlySet<string> = new Set(['sup', 'sqrt', 'bang']);

function decimalsOf(t: Token): number {
  return (t.text.split('.')[1] ?? '').length;
}

/**
 * Whether `exact` (the value of `exactSide`, which must hold no written decimal itself: with
 * decimals on both sides nothing says which one was rounded) lies within the range `rounded`
 * spans as its written decimals move by a unit of their last digit.
 */
export function withinWrittenRounding(rounded: readonly Token[], exactSide: { tokens: readonly Token[]; value: Rational }, reading: PercentReading): boolean {
  if (exactSide.tokens.some((t) => t.kind === 'num' && decimalsOf(t) > 0)) return false;
  const exact = exactSide.value;
  const decimals = rounded.filter((t) => t.kind === 'num' && decimalsOf(t) > 0);
  if (decimals.length === 0 || decimals.length > MAX_ROUNDED) return false;
  if (rounded.some((t) => NOT_MONOTONE.has(t.kind) || (t.kind === 'op' && t.text === '^'))) return false;
  const places = Math.max(...decimals.map(decimalsOf));
  const needed = terminatingDecimals(exact);
  // 16 - 3.5 = 12 + 0.49 is wrong, not rounded: 12.5 needs no more decimals than were written.
  if (needed !== null && needed <= places) return false;
  let low: Rational | null = null;
  let high: Rational | null = null;
  for (let corner = 0; corner < 1 << decimals.length; corner++) {
    const values = new Map<Token, Rational>();
    decimals.forEach((t, k) => {
      const unit = tenToMinus(decimalsOf(t));
      values.set(t, corner & (1 << k) ? add(parseDecimal(t.text), unit) : sub(parseDecimal(t.text), unit));
    });
    const side = evaluate(rounded, reading, values);
    if (!side.ok) return false;
    if (low === null || compare(side.value, low) < 0) low = side.value;
    if (high === null || compare(side.value, high) > 0) high = side.value;
  }
  return low !== null && high !== null && compare(low, exact) < 0 && compare(exact, high) < 0;
}
