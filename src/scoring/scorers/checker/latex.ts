/**
 * LaTeX math in steps: finding `$…$`, `$$…$$`, `\(…\)`, `\[…\]` spans, splitting their content into
 * the sides of `=` chains, and turning a side into plain arithmetic for the exact evaluator. Sides
 * with `\pi`, `\binom` or a surd are left to the CAS; anything with a letter is a variable or a word
 * and is never checked.
 */

/** A math span's content and where it sits in the step. */
export interface MathSpan {
  start: number;
  end: number;
  content: string;
}

/**
 * Find math spans. A single `$` opens only when followed by a non-space and closes only when
 * preceded by a non-space and not followed by a digit (Pandoc's rule), so `$2 and $3` is money.
 */
export function findMathSpans(text: string): MathSpan[] {
  const spans: MathSpan[] = [];
  const scan = new SpanScan(text);
  // A span can only start at `$` or `\\`: the scan jumps from one of those to the next.
  const openers = new Openers(text);
  let i = openers.next(0);
  while (i < text.length) {
    const span = scan.spanAt(i);
    if (span) {
      spans.push(span);
      i = openers.next(span.end);
    } else {
      i = openers.next(i + (text[i] === '\\' ? 2 : 1));
    }
  }
  return spans;
}

/** The first `$` or `\\` at or after a position (the text's length when none), for positions that only grow. */
class Openers {
  private dollar = -1;
  private backslash = -1;

  constructor(private readonly text: string) {}

  next(from: number): number {
    if (this.dollar < from) this.dollar = found(this.text.indexOf('$', from), this.text);
    if (this.backslash < from) this.backslash = found(this.text.indexOf('\\', from), this.text);
    return Math.min(this.dollar, this.backslash);
  }
}

function found(at: number, text: string): number {
  return at < 0 ? text.length : at;
}

const ENVIRONMENT = /^\\begin\{(align|equation|gather|eqnarray|multline)(\*?)\}/;

/**
 * Looks for spans left to right, remembering what earlier searches found, so that a step full of
 * openers that never close (`\[ \[ \[`, `$a $b $c`) costs one pass, not one pass per opener.
 */
class SpanScan {
  /** Per closing delimiter: where the last search started and what it found (-1: nothing after). */
  private readonly found = new Map<string, { from: number; at: number }>();
  /** A `$` opened before this found no close before it: neither does a later `$` before it. */
  private dollarDeadEnd = -1;

  constructor(private readonly text: string) {}

  spanAt(i: number): MathSpan | null {
    const text = this.text;
    const env = text[i] === '\\' ? ENVIRONMENT.exec(text.slice(i, i + 40)) : null;
    if (env) {
      const close = `\\end{${env[1] ?? ''}${env[2] ?? ''}}`;
      const end = this.indexOf(close, i);
      return end < 0 ? null : { start: i, end: end + close.length, content: text.slice(i, end + close.length) };
    }
    for (const [open, close] of [['$$', '$$'], ['\\[', '\\]'], ['\\(', '\\)']] as const) {
      if (!text.startsWith(open, i)) continue;
      const end = this.indexOf(close, i + open.length);
      return end < 0 ? null : { start: i, end: end + close.length, content: text.slice(i + open.length, end) };
    }
    if (text[i] !== '$' || /\s/.test(text[i + 1] ?? ' ') || i < this.dollarDeadEnd) return null;
    return this.dollarSpan(i);
  }

  /** `text.indexOf(close, from)` for searches that only move forward. */
  private indexOf(close: string, from: number): number {
    const last = this.found.get(close);
    if (last && last.from <= from && (last.at < 0 || last.at >= from)) return last.at;
    const at = this.text.indexOf(close, from);
    this.found.set(close, { from, at });
    return at;
  }

  /** A single `$` closes at a `$` after a non-space and not before a digit, within its paragraph. */
  private dollarSpan(i: number): MathSpan | null {
    const text = this.text;
    for (let j = i + 1; j < text.length; j++) {
      const c = text[j];
      if (c === '\\') {
        j++;
        continue;
      }
      if (c === '\n' && text[j + 1] === '\n') {
        this.dollarDeadEnd = j;
        return null;
      }
      if (c === '$' && !/\s/.test(text[j - 1] ?? ' ') && !/\d/.test(text[j + 1] ?? '')) {
        return { start: i, end: j + 1, content: text.slice(i + 1, j) };
      }
    }
    this.dollarDeadEnd = text.length;
    return null;
  }
}

/** The sides of one relation inside a math span. */
export interface MathPair {
  lhs: string;
  rhs: string;
  relation: 'eq' | 'approx';
}

/** Relations that end a chain without being checked. */
const BREAKING_COMMANDS = new Set([
  'le', 'leq', 'ge', 'geq', 'lt', 'gt', 'ne', 'neq', 'implies', 'Rightarrow', 'rightarrow', 'to',
  'iff', 'Leftrightarrow', 'equiv', 'pmod', 'bmod', 'mod', 'sim', 'cong', 'in', 'quad', 'qquad',
  'Longrightarrow', 'therefore', 'because', 'propto', 'approxeq', 'simeq',
]);

/** Commands whose argument is prose: a unit, a word, a label. */
const TEXT_COMMANDS = new Set(['text', 'textbf', 'textit', 'textrm', 'mathrm', 'mbox', 'operatorname', 'mathit', 'hbox']);

type Piece =
  | { kind: 'side'; text: string; afterBreak: boolean }
  | { kind: 'relation'; relation: 'eq' | 'approx' }
  | { kind: 'break' };

/** Split math content into adjacent pairs around `=` and `\approx`, never across a break. */
export function mathPairs(content: string): MathPair[] {
  const pieces = splitPieces(normalise(content));
  const pairs: MathPair[] = [];
  for (let k = 1; k + 1 < pieces.length; k++) {
    const [left, rel, right] = [pieces[k - 1], pieces[k], pieces[k + 1]];
    if (left?.kind !== 'side' || rel?.kind !== 'relation' || right?.kind !== 'side') continue;
    const lhs = left.text.trim();
    const rhs = right.text.trim().replace(/(?:\\[,;!: ]|[.,;:\s])+$/, '');
    if (left.afterBreak && /^[-+*/^]|^\\(?:cdot|times|div)/.test(lhs)) continue;
    if (lhs && rhs) pairs.push({ lhs, rhs, relation: rel.relation });
  }
  return pairs;
}

/**
 * Thousands written `12,\\!000` or `12\\,000` become `12,000`; an `align` row that starts with `&=`
 * continues the chain above it, any other row starts a new statement.
 */
function normalise(content: string): string {
  return content
    .replace(/\\(?:begin|end)\{[^}]*\}/g, ' ')
    .replace(/(\d),\\!(?=\d{3})/g, '$1,')
    .replace(/(\d)\\,(?=\d{3}(?!\d))/g, '$1,')
    .replace(/\\\\(?=\s*&?\s*=)/g, ' ')
    .replace(/\\\\/g, ';')
    .replace(/&/g, ' ');
}

function splitPieces(content: string): Piece[] {
  const pieces: Piece[] = [];
  let side = '';
  let afterBreak = false;
  for (let i = 0; i < content.length; ) {
    const read = readTopLevel(content, i);
    i = read.next;
    if (read.kind === 'text') {
      side += read.text;
      continue;
    }
    pieces.push({ kind: 'side', text: side, afterBreak });
    pieces.push(read.kind === 'break' ? { kind: 'break' } : { kind: 'relation', relation: read.kind });
    side = '';
    afterBreak = read.kind === 'break';
  }
  pieces.push({ kind: 'side', text: side, afterBreak });
  return pieces;
}

type Read = { kind: 'text' | 'break' | 'eq' | 'approx'; text: string; next: number };

/** Read one unit at brace depth zero: a braced group, a command (with a prose argument), a char. */
function readTopLevel(s: string, i: number): Read {
  const c = s[i] ?? '';
  if (c === '{') {
    const close = matchingBrace(s, i);
    return { kind: 'text', text: s.slice(i, close + 1), next: close + 1 };
  }
  if (c === '\\') {
    const name = /^\\([A-Za-z]+|.)/.exec(s.slice(i))?.[1] ?? '';
    const next = i + 1 + name.length;
    if (name === 'approx') return { kind: 'approx', text: '', next };
    if (BREAKING_COMMANDS.has(name)) return { kind: 'break', text: '', next };
    if (TEXT_COMMANDS.has(name)) {
      const open = s.indexOf('{', next);
      const end = open < 0 ? next : matchingBrace(s, open) + 1;
      return { kind: 'break', text: '', next: end };
    }
    return { kind: 'text', text: s.slice(i, next), next };
  }
  if (c === '=') return { kind: 'eq', text: '', next: i + 1 };
  if (c === '\u2248') return { kind: 'approx', text: '', next: i + 1 };
  if ('<>:;\u2260\u2264\u2265'.includes(c)) return { kind: 'break', text: '', next: i + 1 };
  if (c === ',' && !isThousandsComma(s, i)) return { kind: 'break', text: '', next: i + 1 };
  return { kind: 'text', text: c, next: i + 1 };
}

function isThousandsComma(s: string, i: number): boolean {
  return /\d/.test(s[i - 1] ?? '') && /^\d{3}(?!\d)/.test(s.slice(i + 1, i + 5));
}

/** Index of the `}` that closes the `{` at `open` (the end of the string when unclosed). */
export function matchingBrace(s: string, open: number): number {
  let depth = 0;
  for (let j = open; j < s.length; j++) {
    if (s[j] === '\\') j++;
    else if (s[j] === '{') depth++;
    else if (s[j] === '}' && --depth === 0) return j;
  }
  return s.length - 1;
}
