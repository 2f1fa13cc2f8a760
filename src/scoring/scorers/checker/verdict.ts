/**
 * Deciding one claim. A claim is false only when every reasonable reading of it is false: `%` as a
 * hundredth or as a label, a trailing `!` as factorial or punctuation, a written result as exact or
 * as rounded to the decimals it shows (also inside a sum: `9 + 8/3 = 9 + 2.67`), a chain
 * `16 - 3 = 13 - 4 = 9` as a running total.
 */
import type { Claim } from './claims';
import { evaluate, type PercentReading } from './expression';
import {
  abs, compare, equals, formatRational, mul, neg, parseDecimal, rational, sub, terminatingDecimals, tenToMinus,
  type Rational,
} from './rational';
import type { Token } from './tokens';
import { withinWrittenRounding } from './writtenRounding';

export type Verdict =
  | { status: 'holds' }
  /** `actual`: the left side's value; `stated`: the right side's, both as shown in notes. */
  | { status: 'false'; actual: string; stated: string }
  | { status: 'unchecked'; reason: string }
  /** Pure arithmetic with an irrational value (a surd, π): only the CAS can decide it. */
  | { status: 'needs-cas' };

const READINGS: readonly PercentReading[] = ['fraction', 'label'];

/** Decide a claim with exact rational arithmetic. */
export function judge(claim: Claim): Verdict {
  if (claim.origin !== 'display' && isBare(claim.lhs) && isBare(claim.rhs)) {
    return { status: 'unchecked', reason: 'two bare numbers (a conversion or a label, not arithmetic)' };
  }
  if (claim.lhs.length === 0 || claim.rhs.length === 0) {
    return claim.latex ? { status: 'needs-cas' } : { status: 'unchecked', reason: 'empty side' };
  }
  if (hasPercentInSum(claim.lhs) || hasPercentInSum(claim.rhs)) {
    return { status: 'unchecked', reason: 'percentage added to a number' };
  }
  const lhs = evaluate(claim.lhs);
  const rhs = evaluate(claim.rhs);
  if (!lhs.ok || !rhs.ok) {
    const inexact = (!lhs.ok && lhs.reason === 'inexact') || (!rhs.ok && rhs.reason === 'inexact');
    const syntax = (!lhs.ok && lhs.reason === 'syntax') || (!rhs.ok && rhs.reason === 'syntax');
    if (inexact && !syntax && claim.latex) return { status: 'needs-cas' };
    return { status: 'unchecked', reason: syntax ? 'not pure arithmetic' : 'not exact' };
  }
  if (anyReadingHolds(claim)) return { status: 'holds' };
  if (isRunningTotal(lhs.value, claim.rhs)) return { status: 'unchecked', reason: 'running total' };
  if (equals(neg(lhs.value), rhs.value) && isBare(claim.rhs)) {
    return { status: 'unchecked', reason: 'a difference written as a size (`360 - 480 = $120 less`)' };
  }
  if (claim.origin === 'text' && isUnspacedRange(claim.lhs)) return { status: 'unchecked', reason: 'a range (`9-5`)' };
  return { status: 'false', actual: formatRational(lhs.value), stated: formatRational(rhs.value) };
}

function readingsOf(tokens: readonly Token[]): readonly PercentReading[] {
  return tokens.some((t) => t.kind === 'percent') ? READINGS : READINGS.slice(0, 1);
}

function anyReadingHolds(claim: Claim): boolean {
  const rhsVariants = claim.rhsTrailingBang ? [claim.rhs, claim.rhs.slice(0, -1)] : [claim.rhs];
  for (const lr of readingsOf(claim.lhs)) {
    const l = evaluate(claim.lhs, lr);
    if (!l.ok) continue;
    for (const rhs of rhsVariants) {
      for (const rr of readingsOf(rhs)) {
        const r = evaluate(rhs, rr);
        if (!r.ok) continue;
        const sides = { lhs: l.value, rhs: r.value, lhsLiteral: literal(claim.lhs, lr), rhsLiteral: literal(rhs, rr) };
        if (agrees(sides, claim.relation)) return true;
        if (claim.relation === 'eq' && isWrittenRounding(claim.lhs, rhs, { lhs: l.value, rhs: r.value }, { lhs: lr, rhs: rr })) return true;
      }
    }
  }
  return false;
}

/** `9 + 8/3 = 9 + 2.67`: one side exact, the other holding decimals rounded from it. */
function isWrittenRounding(lhs: readonly Token[], rhs: readonly Token[], values: { lhs: Rational; rhs: Rational }, readings: { lhs: PercentReading; rhs: PercentReading }): boolean {
  return withinWrittenRounding(rhs, { tokens: lhs, value: values.lhs }, readings.rhs)
    || withinWrittenRounding(lhs, { tokens: rhs, value: values.rhs }, readings.lhs);
}

/** A side that is one written number: its value and how many decimals it shows. */
export interface Literal {
  value: Rational;
  decimals: number;
  significantDigits: number;
}

/** The literal a side consists of, if it is one (`9`, `$3.50`, `-2`, `12.5%`). */
export function literal(tokens: readonly Token[], reading: PercentReading = 'fraction'): Literal | null {
  const body = tokens.filter((t) => t.kind !== 'space' && t.kind !== 'money');
  const negative = body[0]?.text === '-' && body[0].kind === 'op';
  const rest = negative ? body.slice(1) : body;
  const [num, suffix] = rest;
  if (!num || num.kind !== 'num' || rest.length > 2) return null;
  if (suffix && suffix.kind !== 'percent') return null;
  const digits = num.text.replace(/,/g, '');
  const written = (digits.split('.')[1] ?? '').length;
  const isHundredth = suffix !== undefined && reading === 'fraction';
  let value = parseDecimal(digits);
  if (isHundredth) value = mul(value, rational(1n, 100n));
  if (negative) value = mul(value, rational(-1n));
  const significantDigits = digits.replace('.', '').replace(/^0+/, '').length;
  return { value, decimals: written + (isHundredth ? 2 : 0), significantDigits };
}

function isBare(tokens: readonly Token[]): boolean {
  return literal(tokens) !== null;
}

/** `50 + 10% = 55` means "plus ten percent of 50"; neither exact reading is what was meant. */
function hasPercentInSum(tokens: readonly Token[]): boolean {
  const body = tokens.filter((t) => t.kind !== 'space' && t.kind !== 'money');
  return body.some((t, k) => {
    if (t.kind !== 'percent') return false;
    const before = body[k - 2];
    const after = body[k + 1];
    return (before?.kind === 'op' && '+-'.includes(before.text)) || (after?.kind === 'op' && '+-'.includes(after.text));
  });
}

interface Sides {
  lhs: Rational;
  rhs: Rational;
  lhsLiteral: Literal | null;
  rhsLiteral: Literal | null;
}

/** Whether the two values agree, allowing the rounding a written literal shows. */
export function agrees(sides: Sides, relation: 'eq' | 'approx'): boolean {
  const { lhs, rhs, lhsLiteral, rhsLiteral } = sides;
  if (equals(lhs, rhs)) return true;
  const diff = abs(sub(lhs, rhs));
  if (relation === 'approx') {
    const scale = compare(abs(lhs), abs(rhs)) > 0 ? abs(lhs) : abs(rhs);
    const decimals = Math.min(rhsLiteral?.decimals ?? 0, lhsLiteral?.decimals ?? 0);
    return compare(diff, mul(scale, rational(2n, 100n))) <= 0 || compare(diff, tenToMinus(decimals)) < 0;
  }
  return roundsTo(lhs, rhsLiteral, diff) || roundsTo(rhs, lhsLiteral, diff) || isFloatPrintout(rhsLiteral, diff)
    || isFloatPrintout(lhsLiteral, diff);
}

/**
 * `10 / 3 = 3.33` and `7 / 2 = 3` (whole items) are written roundings: accepted when the exact value
 * needs more decimals than the literal shows and lies within one unit of its last digit. `16 - 3 = 12`
 * is not: 13 needs no decimals, so it must match exactly.
 */
function roundsTo(exact: Rational, written: Literal | null, diff: Rational): boolean {
  if (!written) return false;
  const needed = terminatingDecimals(exact);
  if (needed !== null && needed <= written.decimals) return false;
  return compare(diff, tenToMinus(written.decimals)) < 0;
}

/** Calculator notes print doubles: `<<0.1+0.2=0.30000000000000004>>`. */
function isFloatPrintout(written: Literal | null, diff: Rational): boolean {
  if (!written || written.significantDigits < 10) return false;
  return compare(diff, mul(abs(written.value), rational(1n, 1_000_000_000n))) <= 0;
}

/** `16 - 3 = 13 - 4 = 9`: the right side starts from the left side's value and carries on. */
function isRunningTotal(lhs: Rational, rhs: readonly Token[]): boolean {
  const body = rhs.filter((t) => t.kind !== 'space' && t.kind !== 'money');
  const [first, second] = body;
  if (first?.kind !== 'num' || second?.kind !== 'op') return false;
  return equals(parseDecimal(first.text), lhs);
}

/** `9-5 = 8 hours`, `pages 3-7 = 5 pages`: two numbers joined by a bare hyphen are often a range. */
function isUnspacedRange(lhs: readonly Token[]): boolean {
  const [a, dash, b, ...rest] = lhs;
  return rest.length === 0 && a?.kind === 'num' && dash?.text === '-' && b?.kind === 'num'
    && a.end === dash.start && dash.end === b.start;
}
