/**
 * The shape of a normalised answer: a single expression, or a list, set, tuple, interval, union,
 * matrix or relation of them. Shapes decide what "equal" means before any algebra: a set ignores
 * order, a tuple does not, an interval's brackets matter.
 */
/** Relation operators after canonicalisation: `a > b` is stored as `b < a`. */
export type RelationOp = '=' | '<' | '\\le' | '\\ne';

/** A parsed answer. */
export type AnswerNode =
  | { kind: 'atom'; text: string }
  /**
   * Comma-separated answers with no brackets: an unordered collection (`x = 1, 2`). A `spread`
   * list (the two values of `a \pm b`) merges into the collection that contains it.
   */
  | { kind: 'list'; items: AnswerNode[]; spread?: boolean }
  | { kind: 'set'; items: AnswerNode[] }
  /** `(a, b)`, `[a, b)`: a tuple or an interval; brackets and order matter. */
  | { kind: 'tuple'; open: string; close: string; items: AnswerNode[] }
  | { kind: 'union'; items: AnswerNode[] }
  | { kind: 'matrix'; rows: AnswerNode[][]; text: string }
  | { kind: 'relation'; op: RelationOp; lhs: string; rhs: string };

const OPENERS = new Set(['(', '[', '{']);
const CLOSERS = new Set([')', ']', '}']);

/**
 * Splits at top-level occurrences of `sep` (a string or a LaTeX command). Brackets are counted
 * without matching their kinds, because half-open intervals (`[0, 1)`) are legal answers.
 */
export function splitTopLevel(s: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] ?? '';
    if (ch === '\\') {
      if (s.startsWith(sep, i) && depth === 0 && !/[a-zA-Z]/.test(s[i + sep.length] ?? '')) {
        parts.push(s.slice(from, i));
        from = i + sep.length;
        i = from - 1;
      } else if (s[i + 1] === '{' || s[i + 1] === '}') {
        depth += s[i + 1] === '{' ? 1 : -1;
        i++;
      } else i++;
      continue;
    }
    if (OPENERS.has(ch)) depth++;
    else if (CLOSERS.has(ch)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && s.startsWith(sep, i)) {
      parts.push(s.slice(from, i));
      from = i + sep.length;
      i = from - 1;
    }
  }
  parts.push(s.slice(from));
  return parts;
}

/** Parses a normalised answer into its shape. */
export function parseAnswer(s: string): AnswerNode {
  const text = s.trim();
  const groups = splitTopLevel(text, ';').filter((p) => p.trim() !== '');
  if (groups.length > 1) return { kind: 'list', items: groups.map(parseAnswer) };
  const items = splitTopLevel(text, ',').filter((p) => p.trim() !== '');
  if (items.length > 1) return { kind: 'list', items: items.map(parseItem) };
  return parseItem(text);
}

function parseItem(s: string): AnswerNode {
  const text = s.trim();
  const union = splitTopLevel(text, '\\cup');
  if (union.length > 1) return { kind: 'union', items: union.map(parseItem) };
  return parseRelation(text) ?? parsePlusMinus(text) ?? parseBracketed(text) ?? { kind: 'atom', text };
}

const RELATION_TOKEN = /\\approx(?![a-zA-Z])|\\le(?![a-zA-Z])|\\ge(?![a-zA-Z])|\\ne(?![a-zA-Z])|=|<|>/g;

function parseRelation(text: string): AnswerNode | null {
  const approx = splitTopLevel(text, '\\approx');
  if (approx.length > 1) {
    const left = approx[0]?.trim() ?? '';
    return parseItem(/^[a-zA-Z](?:_\{?\w+\}?)?$/.test(left) ? (approx[approx.length - 1] ?? '') : left);
  }
  const tokens = topLevelRelations(text);
  if (tokens.length === 0) return null;
  const ops = tokens.map((t) => t.op);
  if (ops.every((op) => op === '=') && ops.length > 1) {
    const lastOp = tokens[tokens.length - 1];
    return lastOp === undefined ? null : parseItem(text.slice(lastOp.end));
  }
  const parts = sliceAround(text, tokens);
  if (tokens.length === 2) return doubleInequality(parts, ops);
  const [lhs, rhs] = parts;
  const op = ops[0];
  if (op === undefined || lhs === undefined || rhs === undefined) return null;
  return relation(op, lhs, rhs);
}

interface OpToken {
  op: string;
  start: number;
  end: number;
}

function topLevelRelations(text: string): OpToken[] {
  const tokens: OpToken[] = [];
  let depth = 0;
  let last = 0;
  for (const m of text.matchAll(RELATION_TOKEN)) {
    depth += bracketDelta(text.slice(last, m.index));
    last = m.index;
    if (depth === 0) tokens.push({ op: m[0], start: m.index, end: m.index + m[0].length });
  }
  return tokens;
}

function bracketDelta(s: string): number {
  let d = 0;
  for (const ch of s.replace(/\\[{}]/g, '{')) {
    if (OPENERS.has(ch)) d++;
    else if (CLOSERS.has(ch)) d--;
  }
  return d;
}

function sliceAround(text: string, tokens: OpToken[]): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const t of tokens) {
    parts.push(text.slice(from, t.start).trim());
    from = t.end;
  }
  parts.push(text.slice(from).trim());
  return parts;
}

function relation(op: string, lhs: string, rhs: string): AnswerNode {
  if (op === '>') return { kind: 'relation', op: '<', lhs: rhs, rhs: lhs };
  if (op === '\\ge') return { kind: 'relation', op: '\\le', lhs: rhs, rhs: lhs };
  return { kind: 'relation', op: op === '=' ? '=' : (op as RelationOp), lhs, rhs };
}

/** `a < x \le b` is the interval `(a, b]`; any other pair of relations stays an expression. */
function doubleInequality(parts: string[], ops: string[]): AnswerNode | null {
  const [low, , high] = parts;
  const [op1, op2] = ops;
  if (low === undefined || high === undefined || op1 === undefined || op2 === undefined) return null;
  const ascending = ['<', '\\le'];
  const descending = ['>', '\\ge'];
  if (ascending.includes(op1) && ascending.includes(op2)) {
    return interval(low, high, op1 === '\\le', op2 === '\\le');
  }
  if (descending.includes(op1) && descending.includes(op2)) {
    return interval(high, low, op2 === '\\ge', op1 === '\\ge');
  }
  return null;
}

function interval(low: string, high: string, closedLow: boolean, closedHigh: boolean): AnswerNode {
  return {
    kind: 'tuple',
    open: closedLow ? '[' : '(',
    close: closedHigh ? ']' : ')',
    items: [parseItem(low), parseItem(high)],
  };
}

/** `a \pm b` stands for the two answers `a + b` and `a - b`. */
function parsePlusMinus(text: string): AnswerNode | null {
  const parts = splitTopLevel(text, '\\pm');
  if (parts.length !== 2) return null;
  const [a, b] = parts.map((p) => p.trim());
  if (a === undefined || b === undefined || b === '') return null;
  if (a === '') return { kind: 'list', spread: true, items: [parseItem(b), parseItem(`-${wrap(b)}`)] };
  return { kind: 'list', spread: true, items: [parseItem(`${a}+${wrap(b)}`), parseItem(`${a}-${wrap(b)}`)] };
}

function wrap(s: string): string {
  return /^[\w\\{}.]+$/.test(s) ? s : `(${s})`;
}

const MATRIX = /^\\begin\{([pbvBV]?matrix|array)\}(?:\{[^{}]*\})?((?:(?!\\begin\{)[\s\S])*)\\end\{\1\}$/;

function parseBracketed(text: string): AnswerNode | null {
  const matrix = MATRIX.exec(text);
  if (matrix !== null) return parseMatrix(matrix[2] ?? '', text);
  if (text.startsWith('\\{') && text.endsWith('\\}') && closesAtEnd(text, 1)) {
    const inner = text.slice(2, -2);
    return { kind: 'set', items: splitItems(inner) };
  }
  const open = text[0] ?? '';
  const close = text[text.length - 1] ?? '';
  if (!'(['.includes(open) || !')]'.includes(close) || text.length < 2 || !closesAtEnd(text, 0)) return null;
  const inner = text.slice(1, -1);
  const items = splitItems(inner);
  if (items.length === 1) {
    // `(\begin{pmatrix}...\end{pmatrix})`, `\left[\begin{array}...\right]`: brackets around one thing.
    const only = parseItem(inner);
    return only.kind === 'matrix' || (open === '(' && close === ')') ? only : null;
  }
  return { kind: 'tuple', open, close, items };
}

function splitItems(inner: string): AnswerNode[] {
  const bySemicolon = splitTopLevel(inner, ';');
  const raw = bySemicolon.length > 1 ? bySemicolon : splitTopLevel(inner, ',');
  return raw.filter((p) => p.trim() !== '').map(parseItem);
}

/** Whether the bracket at `open` is closed by the last character (not `(1,2),(3,4)`). */
function closesAtEnd(text: string, open: number): boolean {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (ch === '\\' && (text[i + 1] === '{' || text[i + 1] === '}')) {
      depth += text[i + 1] === '{' ? 1 : -1;
      i++;
    } else if (ch === '\\') i++;
    else if (OPENERS.has(ch)) depth++;
    else if (CLOSERS.has(ch)) depth--;
    if (depth === 0) return i >= text.length - 1;
  }
  return false;
}

function parseMatrix(body: string, text: string): AnswerNode {
  const rows = body
    .split(/\\\\/)
    .map((r) => r.trim())
    .filter((r) => r !== '')
    .map((r) => r.split('&').map((c) => parseItem(c.trim())));
  return { kind: 'matrix', rows, text };
}
