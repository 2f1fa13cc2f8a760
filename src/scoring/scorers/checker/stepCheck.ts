/**
 * Checking one step: collect its claims (calculator notes, LaTeX math, plain text), decide each,
 * and turn the verdicts into a score and a note.
 */
import { extractCalculatorNotes } from './calculator';
import { findTextClaims, type Claim } from './claims';
import { findMathSpans, mathPairs } from './latex';
import { latexToArithmetic } from './latexArithmetic';
import { quicklyHolds } from './quickArithmetic';
import { relationWindows } from './relationWindows';
import { tokenize, tokenizeRange, type Token } from './tokens';
import { cappedList } from '../../../core/presentation/listWords';
import { judge, literal, type Verdict } from './verdict';

/** A claim with its verdict. */
export interface JudgedClaim {
  claim: Claim;
  verdict: Verdict;
}

/**
 * Steps without a digit and a relation (`=`, `≈`, `\approx`) cannot hold a claim; most prose
 * steps stop here. Searched for one by one: a search for the three at once reads the step
 * character by character.
 */
function mayHoldClaim(step: string): boolean {
  return /\d/.test(step) && (step.includes('=') || step.includes('\u2248') || step.includes('\\approx'));
}

/** Markdown list markers at a line start (`1. `, `- `), which are not arithmetic. */
const LIST_MARKER = /^([ \t]*)(?:\d{1,3}[.)]|[-*\u2022+])[ \t]+/gm;

/** Every claim a step makes, in the order: calculator notes, math spans, plain text. */
export function findClaims(step: string): Claim[] {
  if (!mayHoldClaim(step)) return [];
  const { claims, rest } = extractCalculatorNotes(step);
  // Math opens only at a dollar sign or a backslash; most prose steps have neither. The rest holds
  // no character the step does not, so the step (already flat) is asked first.
  const hasDollar = step.includes('$');
  const hasBackslash = step.includes('\\');
  const spans = (hasDollar && rest.includes('$')) || (hasBackslash && rest.includes('\\')) ? findMathSpans(rest) : [];
  let plain = '';
  let from = 0;
  for (const span of spans) {
    claims.push(...mathClaims(span.content));
    plain += `${rest.slice(from, span.start)}\n\n`;
    from = span.end;
  }
  plain = `${plain}${rest.slice(from)}`;
  if (mayHoldListMarker(plain)) plain = plain.replace(LIST_MARKER, '$1');
  if (hasBackslash && plain.includes('\\$')) plain = plain.replace(/\\\$/g, '$');
  for (const window of relationWindows(plain)) {
    for (const claim of findTextClaims(tokenizeRange(plain, window.start, window.end), plain)) claims.push(claim);
  }
  return claims;
}

/**
 * Whether some line of `text` may start with a list marker (a cheap look at each line start, so
 * that the replacement runs only where it can change something). A line starting after `\r`,
 * U+2028 or U+2029 is left to the expression itself.
 */
function mayHoldListMarker(text: string): boolean {
  if (text.includes('\r') || text.includes('\u2028') || text.includes('\u2029')) return true;
  for (let at = 0; at >= 0; ) {
    let i = at;
    let code = text.charCodeAt(i);
    while (code === 32 || code === 9) code = text.charCodeAt(++i);
    let digits = 0;
    while (code >= 48 && code <= 57) {
      digits++;
      code = text.charCodeAt(++i);
    }
    const marker = digits > 0 ? digits <= 3 && (code === 46 || code === 41) : code === 45 || code === 42 || code === 0x2022 || code === 43;
    const after = text.charCodeAt(i + 1);
    if (marker && (after === 32 || after === 9)) return true;
    const lineEnd = text.indexOf('\n', at);
    at = lineEnd < 0 ? -1 : lineEnd + 1;
  }
  return false;
}

function mathClaims(content: string): Claim[] {
  const claims: Claim[] = [];
  for (const pair of mathPairs(content)) {
    const lhs = latexToArithmetic(pair.lhs);
    const rhs = latexToArithmetic(pair.rhs);
    const usable = (side: typeof lhs): boolean => side.plain !== null || side.casEligible;
    if (!usable(lhs) || !usable(rhs)) continue;
    const bothCas = lhs.casEligible && rhs.casEligible;
    const relation = pair.relation === 'eq' ? '=' : '\\approx';
    claims.push({
      lhs: sideTokens(lhs.plain),
      rhs: sideTokens(rhs.plain),
      relation: pair.relation,
      origin: 'math',
      text: `${pair.lhs} ${relation} ${pair.rhs}`,
      ...(bothCas ? { latex: { lhs: pair.lhs, rhs: pair.rhs } } : {}),
    });
  }
  return claims;
}

function sideTokens(plain: string | null): Token[] {
  return plain === null ? [] : tokenize(plain).filter((t) => t.kind !== 'space');
}

/** Decide every claim of a step with exact arithmetic; some may remain `needs-cas`. */
export function judgeStep(step: string): JudgedClaim[] {
  let claims: Claim[];
  try {
    claims = findClaims(step);
  } catch {
    // Math nested deeper than the stack (`{{{…}}}`): nothing in it is checked.
    return [];
  }
  const judged = new Array<JudgedClaim>(claims.length);
  for (let k = 0; k < claims.length; k++) {
    const claim = claims[k] as Claim;
    judged[k] = { claim, verdict: judgeSafely(claim) };
  }
  return judged;
}

/** The verdict of every claim that holds: one shared value (verdicts are replaced, never changed). */
const HOLDS: Verdict = Object.freeze({ status: 'holds' });

/**
 * A claim too large or too deeply nested for the exact evaluator (a 4,000-digit number, ten
 * thousand nested brackets) is left unchecked: it must never fail the analysis of its file.
 */
function judgeSafely(claim: Claim): Verdict {
  if (quicklyHolds(claim)) return HOLDS;
  try {
    return judge(claim);
  } catch (error) {
    return { status: 'unchecked', reason: error instanceof RangeError ? 'nested too deeply to check' : 'too large to check' };
  }
}

/** The checker's two levels: a step with a false claim, and every other step. */
export interface StepScores {
  falseClaim: number;
  pass: number;
}

/** A step's score and note. */
export interface StepOutcome {
  score: number;
  /**
   * The false claims (`16 - 3 = 12 is false (13)`, the first three, then how many more), else what
   * was verified (`checked: 4 \times 12 = 48`), else null when the step held nothing to check.
   */
  note: string | null;
  isFlagged: boolean;
}

/** Fold a step's verdicts into its score; a claim still waiting for the CAS counts as unchecked. */
export function stepOutcome(judged: readonly JudgedClaim[], scores: StepScores): StepOutcome {
  const falseNotes: string[] = [];
  let seen: Set<string> | null = null;
  const held: string[] = [];
  for (const { claim, verdict } of judged) {
    if (verdict.status === 'holds' && !held.includes(claim.text)) held.push(claim.text);
    if (verdict.status !== 'false') continue;
    const key = `${verdict.actual}|${verdict.stated}`;
    seen ??= new Set<string>();
    if (seen.has(key)) continue;
    seen.add(key);
    falseNotes.push(falseNote(claim, verdict));
  }
  if (falseNotes.length > 0) return { score: scores.falseClaim, note: cappedList(falseNotes), isFlagged: true };
  return { score: scores.pass, note: checkedNote(held), isFlagged: false };
}

/** `checked: 4 \times 12 = 48; 48 - 30 = 18` (a few, then how many more); null when nothing held. */
function checkedNote(held: readonly string[]): string | null {
  if (held.length === 0) return null;
  // One claim (most steps) is its own list.
  return held.length === 1 ? `checked: ${held[0]}` : `checked: ${cappedList(held)}`;
}

function falseNote(claim: Claim, verdict: { actual: string; stated: string }): string {
  const value = literal(claim.rhs) !== null || claim.rhs.length === 0 ? verdict.actual : `${verdict.actual} vs ${verdict.stated}`;
  return `${claim.text} is false (${value})`;
}
