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
 * The deepest bracket nesting an answer is parsed at. Each level costs a scan of the text, and a
 * final answer nests a few levels (`\left(\frac{\sqrt{2}}{2}, 1\right)` is three); past this it
 * is not graded, with the depth as the reason.
 */
export const MAX_ANSWER_DEPTH = 20;

/** The deepest nesting of `(`, `[`, `{` (and `\{`) in `text`, in one pass; unclosed brackets count. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 41 || c === 93 || c === 125) depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/** Why an answer is too deeply nested to grade (`nested 30 deep …`), or null. */
export function nestingProblem(text: string): string | null {
  const depth = nestingDepth(text);
  return depth > MAX_ANSWER_DEPTH ? `nested ${depth} deep (the limit is ${MAX_ANSWER_DEPTH})` : null;
}

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

/**
 * Parses a normalised answer into its shape. Each bracket level is parsed once, so the work is
 * the text's length times its nesting depth; a text nested deeper than `MAX_ANSWER_DEPTH` (which
 * callers refuse first, with a reason) is read no further than that depth, as atoms.
 */
export function parseAnswer(s: string, depth = 0): AnswerNode {
  const text = s.trim();
  const groups = splitTopLevel(text, ';').filter((p) => p.trim() !== '');
  if (groups.length > 1) return { kind: 'list', items: groups.map((g) => parseAnswer(g, depth + 1)) };
  const items = splitTopLevel(text, ',').filter((p) => p.trim() !== '');
  if (items.length > 1) return { kind: 'list', items: items.map((item) => parseItem(item, depth + 1)) };
  return parseItem(text, depth);
}

/** Recursion past this is no answer anyone wrote: the rest is one atom (the stack stays small). */
const MAX_PARSE_DEPTH = 3 * MAX_ANSWER_DEPTH;

function parseItem(s: string, depth: number): AnswerNode {
  const text = s.trim();
  if (depth > MAX_PARSE_DEPTH) return { kind: 'atom', text };
  const union = splitTopLevel(text, '\\cup');
  if (union.length > 1) return { kind: 'union', items: union.map((u) => parseItem(u, depth + 1)) };
  return parseRelation(text, depth) ?? parsePlusMinus(text, depth) ?? parseBracketed(text, depth) ?? { kind: 'atom', text };
}

const RELATION_TOKEN = /\\approx(?![a-zA-Z])|\\le(?![a-zA-Z])|\\ge(?![a-zA-Z])|\\ne(?![a-zA-Z])|=|<|>/g;

function parseRelation(text: string, depth: number): AnswerNode | null {
  const approx = splitTopLevel(text, '\\approx');
  if (approx.length > 1) {
    const left = approx[0]?.trim() ?? '';
    return parseItem(/^[a-zA-Z](?:_\{?\w+\}?)?$/.test(left) ? (approx[approx.length - 1] ?? '') : left, depth + 1);
  }
  const tokens = topLevelRelations(text);
  if (tokens.length === 0) return null;
  const ops = tokens.map((t) => t.op);
  if (ops.every((op) => op === '=') && ops.length > 1) {
    const lastOp = tokens[tokens.length - 1];
    return lastOp === undefined ? null : parseItem(text.slice(lastOp.end), depth + 1);
  }
  const parts = sliceAround(text, tokens);
  if (tokens.length === 2) return doubleInequality(parts, ops, depth);
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
function doubleInequality(parts: string[], ops: string[], depth: number): AnswerNode | null {
  const [low, , high] = parts;
  const [op1, op2] = ops;
  if (low === undefined || high === undefined || op1 === undefined || op2 === undefined) return null;
  const ascending = ['<', '\\le'];
  const descending = ['>', '\\ge'];
  if (ascending.includes(op1) && ascending.includes(op2)) {
    return interval({ low, high, closedLow: op1 === '\\le', closedHigh: op2 === '\\le' }, depth);
  }
  if (descending.includes(op1) && descending.includes(op2)) {
    return interval({ low: high, high: low, closedLow: op2 === '\\ge', closedHigh: op1 === '\\ge' }, depth);
  }
  return null;
}

function interval(ends: { low: string; high: string; closedLow: boolean; closedHigh: boolean }, depth: number): AnswerNode {
  return {
    kind: 'tuple',
    open: ends.closedLow ? '[' : '(',
    close: ends.closedHigh ? ']' : ')',
    items: [parseItem(ends.low, depth + 1), parseItem(ends.high, depth + 1)],
  };
}

/** `a \pm b` stands for the two answers `a + b` and `a - b`. */
function parsePlusMinus(text: string, depth: number): AnswerNode | null {
  const parts = splitTopLevel(text, '\\pm');
  if (parts.length !== 2) return null;
  const [a, b] = parts.map((p) => p.trim());
  if (a === undefined || b === undefined || b === '') return null;
  const item = (t: string): AnswerNode => parseItem(t, depth + 1);
  if (a === '') return { kind: 'list', spread: true, items: [item(b), item(`-${wrap(b)}`)] };
  return { kind: 'list', spread: true, items: [item(`${a}+${wrap(b)}`), item(`${a}-${wrap(b)}`)] };
}

function wrap(s: string): string {
  return /^[\w\\{}.]+$/.test(s) ? s : `(${s})`;
}

const MATRIX = /^\\begin\{([pbvBV]?matrix|array)\}(?:\{[^{}]*\})?((?:(?!\\begin\{)[\s\S])*)\\end\{\1\}$/;

function parseBracketed(text: string, depth: number): AnswerNode | null {
  const matrix = MATRIX.exec(text);
  if (matrix !== null) return parseMatrix(matrix[2] ?? '', text, depth);
  if (text.startsWith('\\{') && text.endsWith('\\}') && closesAtEnd(text, 1)) {
    const inner = text.slice(2, -2);
    return { kind: 'set', items: splitItems(inner, depth).items };
  }
  const open = text[0] ?? '';
  const close = text[text.length - 1] ?? '';
  if (!'(['.includes(open) || !')]'.includes(close) || text.length < 2 || !closesAtEnd(text, 0)) return null;
  const inner = text.slice(1, -1);
  const { items, isWhole } = splitItems(inner, depth);
  if (items.length === 1) {
    // `(\begin{pmatrix}...\end{pmatrix})`, `\left[\begin{array}...\right]`: brackets around one thing.
    // When nothing was split off, the one item is the inner text already parsed: parsing it again
    // at every level made `((((1))))` cost twice as much per bracket (30 levels: hours).
    const only = isWhole ? (items[0] as AnswerNode) : parseItem(inner, depth + 1);
    return only.kind === 'matrix' || (open === '(' && close === ')') ? only : null;
  }
  return { kind: 'tuple', open, close, items };
}

/** The items of a bracket's inner text; `isWhole` when no separator split it (one item, the whole text). */
function splitItems(inner: string, depth: number): { items: AnswerNode[]; isWhole: boolean } {
  const bySemicolon = splitTopLevel(inner, ';');
  const raw = bySemicolon.length > 1 ? bySemicolon : splitTopLevel(inner, ',');
  const items = raw.filter((p) => p.trim() !== '').map((p) => parseItem(p, depth + 1));
  return { items, isWhole: raw.length === 1 };
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

function parseMatrix(body: string, text: string, depth: number): AnswerNode {
  const rows = body
    .split(/\\\\/)
    .map((r) => r.trim())
    .filter((r) => r !== '')
    .map((r) => r.split('&').map((c) => parseItem(c.trim(), depth + 1)));
  return { kind: 'matrix', rows, text };
}
