/**
 * Cheap arithmetic first: most claims in real steps are sums and products of whole numbers that
 * hold (`16 - 3 - 4 = 9`, `4 * 12 = 48`). Those are decided here with floating-point integers that
 * stay exact (every value a safe integer), without building rationals. Only "holds" is decided
 * here, and only for claims whose every reading the exact judge would take the same way; anything
 * else (a decimal, a division, a parenthesis, a false claim) goes to the exact judge unchanged.
 */
import type { Claim } from './claims';
import type { Token } from './tokens';

/** Whether `claim` certainly holds: both sides `n (op n)*` with `+ - *` and whole numbers, equal. */
export function quicklyHolds(claim: Claim): boolean {
  const lhs = sideValue(claim.lhs);
  if (lhs === null) return false;
  const rhs = sideValue(claim.rhs);
  if (rhs === null || lhs.value !== rhs.value) return false;
  // Two bare numbers are a conversion or a label to the exact judge, not a claim that holds.
  return claim.origin === 'display' || !(lhs.isBare && rhs.isBare);
}

interface Side {
  value: number;
  isBare: boolean;
}

/** The value of a side made of whole numbers joined by `+`, `-`, `*` (spaces and currency signs ignored). */
function sideValue(tokens: readonly Token[]): Side | null {
  let sum = 0;
  let product = 1;
  let sign = 1;
  let numbers = 0;
  let expectNumber = true;
  for (const t of tokens) {
    if (t.kind === 'space' || t.kind === 'money') continue;
    if (expectNumber) {
      const n = t.kind === 'num' ? wholeNumber(t.text) : null;
      if (n === null) return null;
      product *= n;
      if (!Number.isSafeInteger(product)) return null;
      numbers++;
      expectNumber = false;
    } else if (t.kind === 'op' && t.text === '*') {
      expectNumber = true;
    } else if (t.kind === 'op' && (t.text === '+' || t.text === '-')) {
      sum += sign * product;
      if (!Number.isSafeInteger(sum)) return null;
      sign = t.text === '+' ? 1 : -1;
      product = 1;
      expectNumber = true;
    } else {
      return null;
    }
  }
  if (expectNumber) return null;
  sum += sign * product;
  return Number.isSafeInteger(sum) ? { value: sum, isBare: numbers === 1 } : null;
}

/** `12`, `1,000`: digits with thousands commas, at most 15 of them; null for anything else. */
function wholeNumber(text: string): number | null {
  let value = 0;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 44) continue;
    if (code < 48 || code > 57 || ++digits > 15) return null;
    value = value * 10 + (code - 48);
  }
  return digits === 0 ? null : value;
}
