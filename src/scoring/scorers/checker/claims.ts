/**
 * Finding equality claims in plain text. Each `=` (or `≈`) is a candidate; its two sides are the
 * runs of arithmetic tokens next to it. A side is given up whenever the text around it suggests the
 * arithmetic is only part of what was meant: a variable or unit glued to a number, a word that acts
 * as an operator ("twice", "of", "more than"), a ratio or clock time, an unfinished operator.
 */
import { EXPRESSION_KINDS, isSpaceCode, neighbour, type Token } from './tokens';

/** One arithmetic claim to verify. */
export interface Claim {
  /** Expression tokens of each side, trimmed of spaces. */
  lhs: Token[];
  rhs: Token[];
  relation: 'eq' | 'approx';
  /** `calculator`: a GSM8K `<<a=b>>` note; `display`: the number shown after it; `text`; `math`. */
  origin: 'calculator' | 'display' | 'text' | 'math';
  /** As it reads in the step, for notes. */
  text: string;
  /** The sides' LaTeX, for claims the CAS may have to decide. */
  latex?: { lhs: string; rhs: string };
  /** The right side ends in `!` that may be punctuation rather than a factorial. */
  rhsTrailingBang?: boolean;
}

/** Words that combine the number after them with something before: the arithmetic is incomplete. */
const OPERATOR_WORDS = new Set([
  'times', 'of', 'plus', 'minus', 'by', 'over', 'twice', 'half', 'double', 'triple', 'thrice',
  'and', 'than', 'less', 'more', 'per', 'into', 'divided', 'multiplied', 'from', 'sqrt', 'root',
  'squared', 'cubed', 'quadruple', 'product', 'sum', 'difference', 'quotient', 'with', 'without',
  'mod', 'modulo', 'to', 'vs', 'versus', 'through', 'in', 'every', 'each', 'out', 'choose', 'log', 'ln',
  'sin', 'cos', 'tan', 'exp',
]);

/** Words that scale or relabel the number before them (`= 3 thousand`, `= 25 percent`). */
export const SCALE_WORDS = new Set([
  'hundred', 'hundreds', 'thousand', 'thousands', 'million', 'millions', 'billion', 'billions',
  'trillion', 'dozen', 'dozens', 'percent', 'pct', 'per', 'squared', 'cubed', 'halves', 'thirds',
  'fourths', 'quarters', 'fifths', 'sixths', 'tenths', 'hundredths', 'thousandths', 'times', 'to',
  'out', 'k', 'm', 'bn', 'mn', 'x', 'mod', 'modulo', 'r', 'rem', 'remainder', 'choose',
]);

/** Punctuation that may follow a right side directly, as the end of a sentence or clause. */
const CLOSING_PUNCTUATION = new Set(['.', ',', ';', '?', '"', '\u201d', '\u2019', "'"]);

/** Punctuation that may precede a left side directly. */
const OPENING_PUNCTUATION = new Set(['"', '\u201c', '\u2018', "'"]);

interface Side {
  tokens: Token[];
  stopper: Token | undefined;
  /** Whether whitespace separates the side from its stopper. */
  separated: boolean;
}

/** Ratios and clock times (`3:4 = 6:8`, `2:30 + 15 = 2:45`): never arithmetic on either side. */
function isColon(t: Token | undefined): boolean {
  return t?.kind === 'other' && (t.text === ':' || t.text === '\u2236');
}

/** All claims around `=` and `≈` tokens of a tokenized plain text. */
export function findTextClaims(tokens: readonly Token[], source: string): Claim[] {
  const claims: Claim[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (t.kind !== 'eq' && t.kind !== 'approx') continue;
    const left = walk(tokens, k, -1);
    if (!isValidLeft(left)) continue;
    const right = walk(tokens, k, 1);
    if (!isValidRight(right)) continue;
    const lhs = stripUnmatched(left.tokens, 'lparen');
    const rhs = stripUnmatched(right.tokens, 'rparen');
    if (!lhs || !rhs) continue;
    const first = lhs[0];
    const last = rhs[rhs.length - 1];
    if (!first || !last) continue;
    claims.push({
      lhs,
      rhs,
      relation: t.kind === 'eq' ? 'eq' : 'approx',
      origin: 'text',
      text: foldSpaces(source.slice(first.start, last.end)),
      rhsTrailingBang: last.kind === 'bang',
    });
  }
  return claims;
}

/** Every run of whitespace as one space (`/\s+/g` → ' '), without a replacement when there is none to fold. */
function foldSpaces(text: string): string {
  let previous = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code === 32 && previous === 32) || (code !== 32 && isSpaceCode(code))) return text.replace(/\s+/g, ' ');
    previous = code;
  }
  return text;
}

/**
 * Collect expression tokens away from the relation at `from`. A line break is crossed only when an
 * operator sits right at it (`16 -⏎ 3`), so a number ending one line never joins the next line's sum.
 */
function walk(tokens: readonly Token[], from: number, step: 1 | -1): Side {
  let k = from + step;
  for (; k >= 0 && k < tokens.length; k += step) {
    const t = tokens[k] as Token;
    if (!EXPRESSION_KINDS.has(t.kind)) break;
    if (t.kind === 'space' && t.hasNewline && !operatorAtBreak(tokens, k)) break;
  }
  // The side is tokens[a, b): what the walk passed over, in text order.
  let a = step === 1 ? from + 1 : k + 1;
  let b = step === 1 ? k : from;
  const separated = b > a && tokens[step === 1 ? b - 1 : a]?.kind === 'space';
  while (a < b && tokens[a]?.kind === 'space') a++;
  while (b > a && tokens[b - 1]?.kind === 'space') b--;
  return { tokens: tokens.slice(a, b), stopper: tokens[k], separated };
}

function operatorAtBreak(tokens: readonly Token[], at: number): boolean {
  return neighbour(tokens, at, -1)?.kind === 'op' || neighbour(tokens, at, 1)?.kind === 'op';
}

function trimSpaces(tokens: Token[]): Token[] {
  let a = 0;
  let b = tokens.length;
  while (a < b && tokens[a]?.kind === 'space') a++;
  while (b > a && tokens[b - 1]?.kind === 'space') b--;
  return tokens.slice(a, b);
}

function significant(tokens: readonly Token[]): Token[] {
  return tokens.filter((t) => t.kind !== 'space' && t.kind !== 'money');
}

function isVariableWord(t: Token | undefined): boolean {
  return t?.kind === 'word' && t.text.length === 1 && !['a', 'A', 'I'].includes(t.text);
}

function isValidLeft(side: Side): boolean {
  const body = significant(side.tokens);
  const first = body[0];
  const last = body[body.length - 1];
  if (!first || !last || !body.some((t) => t.kind === 'num') || last.kind === 'op') return false;
  const stop = side.stopper;
  if (isColon(stop)) return false;
  if (stop && !side.separated && !isHardStop(stop) && !OPENING_PUNCTUATION.has(stop.text)) return false;
  if (stop?.kind === 'word') {
    // A lone number after a word belongs to the phrase: `1 in 4 = 1/4`, `3 to 4 = 0.75`.
    if (OPERATOR_WORDS.has(stop.text.toLowerCase()) || isVariableWord(stop)) return false;
    if (body.every((t) => t.kind === 'num' || t.kind === 'percent')) return false;
    // A parenthesis right after a word annotates it: `candy ($5) = $65`, `Val's points (16) = 24`.
    if (first.kind === 'op' || first.kind === 'lparen') return false;
  }
  if (hasAside(side.tokens)) return false;
  return first.kind !== 'op' || isUnaryMinus(side.tokens);
}

/** A leading `-` counts as a sign only when glued to its number: `-3 + 5`, not `x - 3`. */
function isUnaryMinus(tokens: readonly Token[]): boolean {
  const [sign, next] = tokens.filter((t) => t.kind !== 'money');
  return sign?.text === '-' && (next?.kind === 'num' || next?.kind === 'lparen');
}

/** Kinds that end an operand: a parenthesis after one of them would be read as a product. */
const OPERAND_ENDS = new Set(['num', 'rparen', 'percent', 'sup']);

/**
 * `16 + 16 (+ 20) = 52`: a parenthesis after an operand that opens with an operator (a `-` only
 * when a space follows it, since `2(-3)` is a product) is an aside, not a factor. Which term it
 * adds to is anybody's guess, so the side is not checked.
 */
function hasAside(tokens: readonly Token[]): boolean {
  for (let k = 0; k < tokens.length; k++) {
    if (tokens[k]?.kind !== 'lparen') continue;
    const before = neighbour(tokens, k, -1);
    let j = k + 1;
    while (tokens[j]?.kind === 'space') j++;
    const after = tokens[j];
    if (!before || !OPERAND_ENDS.has(before.kind) || after?.kind !== 'op') continue;
    if (after.text !== '-' || tokens[j + 1]?.kind === 'space') return true;
  }
  return false;
}

/** A walk only ever stops at a `space` token when it holds a line break. */
function isHardStop(t: Token): boolean {
  return t.kind === 'eq' || t.kind === 'approx' || t.kind === 'break' || t.kind === 'space';
}

function isValidRight(side: Side): boolean {
  const body = significant(side.tokens);
  const first = body[0];
  const last = body[body.length - 1];
  if (!first || !last || !body.some((t) => t.kind === 'num') || last.kind === 'op' || hasAside(side.tokens)) return false;
  if (first.kind === 'op' && !isUnaryMinus(side.tokens)) return false;
  const stop = side.stopper;
  if (!stop) return true;
  if (isColon(stop)) return false;
  if (!side.separated) return isHardStop(stop) || CLOSING_PUNCTUATION.has(stop.text);
  return !(stop.kind === 'word' && SCALE_WORDS.has(stop.text.toLowerCase()));
}

/**
 * Drop parentheses opened before the left side or closed after the right one (`(3 + 4 = 7)`);
 * null when what remains is still unbalanced.
 */
function stripUnmatched(tokens: Token[], outer: 'lparen' | 'rparen'): Token[] | null {
  let body = tokens;
  for (;;) {
    const depth = balance(body);
    if (depth === 0) return body;
    const edge = outer === 'lparen' ? body[0] : body[body.length - 1];
    const excess = outer === 'lparen' ? depth > 0 : depth < 0;
    if (!excess || edge?.kind !== outer) return null;
    body = trimSpaces(outer === 'lparen' ? body.slice(1) : body.slice(0, -1));
  }
}

/** Opened minus closed; −Infinity when a `)` comes before its `(`. */
function balance(tokens: readonly Token[]): number {
  let depth = 0;
  let dipped = false;
  for (const t of tokens) {
    if (t.kind === 'lparen') depth++;
    if (t.kind === 'rparen') depth--;
    if (depth < 0) dipped = true;
  }
  return dipped && depth >= 0 ? Number.NEGATIVE_INFINITY : depth;
}
