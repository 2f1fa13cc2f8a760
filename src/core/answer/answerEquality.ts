/**
 * Equality of parsed answers, shape by shape. Leaves (single expressions and relations) are
 * compared by a pluggable comparer, so the same walk serves the cheap path (strings and numbers)
 * and the algebra path; `null` means "cannot tell" and propagates.
 */
import { parseNumber, numbersEqual } from './numeric';
import { parseAnswer, type AnswerNode } from './structure';

/** true, false, or null for undecided. */
export type Tri = boolean | null;

/** A relation node. */
export type RelationNode = Extract<AnswerNode, { kind: 'relation' }>;

/** Decides leaf comparisons. */
export interface LeafComparer {
  atoms(a: string, b: string): Tri;
  relations(a: RelationNode, b: RelationNode): Tri;
}

/** Leaves decided by strings and plain numbers only; anything else is undecided. */
export const FAST_LEAVES: LeafComparer = {
  atoms: fastAtomsEqual,
  relations: () => null,
};

const WORDS = /^[A-Za-z][A-Za-z ]*$/;
const LITERAL_TOKEN = /^\d+_\{?\d+\}?$|^\d+:\d+$/;

/** Atom equality without algebra: identical text, equal numbers, equal words. */
export function fastAtomsEqual(a: string, b: string): Tri {
  if (a === b) return true;
  const na = parseNumber(a);
  const nb = parseNumber(b);
  if (na !== null && nb !== null) return numbersEqual(na, nb);
  const wordA = WORDS.test(a);
  const wordB = WORDS.test(b);
  if (wordA && wordB) return a.length > 1 && a.toLowerCase() === b.toLowerCase();
  if ((wordA && nb !== null) || (wordB && na !== null)) return false;
  // Numbers in a base (`204_5`) and clock times or ratios (`12:00`) are compared as written.
  if (LITERAL_TOKEN.test(a) || LITERAL_TOKEN.test(b)) return false;
  return null;
}

/** Compares two parsed answers. */
export function compareNodes(a: AnswerNode, b: AnswerNode, leaves: LeafComparer): Tri {
  const x = simplify(a);
  const y = simplify(b);
  if (x.kind === 'relation' || y.kind === 'relation') return compareRelations(x, y, leaves);
  if (x.kind === 'atom' && y.kind === 'atom') return leaves.atoms(x.text, y.text);
  if (x.kind === 'matrix' && y.kind === 'matrix') return compareMatrices(x.rows, y.rows, leaves);
  if (x.kind === 'matrix' && y.kind === 'atom') return leaves.atoms(x.text, y.text);
  if (x.kind === 'atom' && y.kind === 'matrix') return leaves.atoms(x.text, y.text);
  const comma = decimalComma(x, y) ?? decimalComma(y, x);
  if (comma !== null) return comma;
  return compareCollections(x, y, leaves);
}

function compareCollections(x: AnswerNode, y: AnswerNode, leaves: LeafComparer): Tri {
  if (x.kind === 'tuple' && y.kind === 'tuple') {
    if (x.open !== y.open || x.close !== y.close) return false;
    return compareOrdered(x.items, y.items, leaves);
  }
  const unordered = (n: AnswerNode): n is Extract<AnswerNode, { items: AnswerNode[] }> =>
    n.kind === 'list' || n.kind === 'set';
  // A bare `1, 3` against `(1, 3)`: the brackets were left out, the order was not.
  if (x.kind === 'tuple' && unordered(y)) return compareOrdered(x.items, y.items, leaves);
  if (y.kind === 'tuple' && unordered(x)) return compareOrdered(x.items, y.items, leaves);
  if (unordered(x) && unordered(y)) return compareUnordered(x.items, y.items, leaves);
  if (x.kind === 'union' && y.kind === 'union') return compareUnordered(x.items, y.items, leaves);
  return false;
}

function compareOrdered(xs: AnswerNode[], ys: AnswerNode[], leaves: LeafComparer): Tri {
  if (xs.length !== ys.length) return false;
  return allOf(xs.map((x, i) => () => compareNodes(x, ys[i] ?? x, leaves)));
}

/** Set equality: every item on each side equals some item on the other (duplicates collapse). */
function compareUnordered(xs: AnswerNode[], ys: AnswerNode[], leaves: LeafComparer): Tri {
  const memo = new Map<string, Tri>();
  const eq = (i: number, j: number): Tri => {
    const key = `${i},${j}`;
    const cached = memo.get(key);
    if (cached !== undefined) return cached;
    const x = xs[i];
    const y = ys[j];
    const result = x === undefined || y === undefined ? false : compareNodes(x, y, leaves);
    memo.set(key, result);
    return result;
  };
  const covered = (n: number, m: number, at: (i: number, j: number) => Tri): Tri =>
    allOf(Array.from({ length: n }, (_, i) => () => anyOf(Array.from({ length: m }, (_, j) => () => at(i, j)))));
  const left = covered(xs.length, ys.length, eq);
  if (left === false) return false;
  const right = covered(ys.length, xs.length, (j, i) => eq(i, j));
  return right === false ? false : left === true && right === true ? true : null;
}

function compareMatrices(xs: AnswerNode[][], ys: AnswerNode[][], leaves: LeafComparer): Tri {
  if (xs.length !== ys.length) return false;
  return allOf(
    xs.map((row, i) => () => {
      const other = ys[i] ?? [];
      return row.length === other.length ? compareOrdered(row, other, leaves) : false;
    }),
  );
}

function compareRelations(x: AnswerNode, y: AnswerNode, leaves: LeafComparer): Tri {
  if (x.kind === 'relation' && y.kind === 'relation') {
    if (x.op === '=' && y.op === '=' && isDefinition(x) && isDefinition(y)) {
      const values = compareNodes(parseAnswer(x.rhs), parseAnswer(y.rhs), leaves);
      if (values === true) return true;
    }
    return x.op === y.op ? leaves.relations(x, y) : false;
  }
  const rel = x.kind === 'relation' ? x : y;
  const other = x.kind === 'relation' ? y : x;
  if (rel.kind !== 'relation' || rel.op !== '=' || !isDefinition(rel)) return false;
  return compareNodes(parseAnswer(rel.rhs), other, leaves);
}

/**
 * Whether `lhs = rhs` names a value rather than states an equation: `x = 5`, `f(x) = 1`,
 * `(p, q) = (3, 2)`, `\frac{NO}{BO} = ...`, or arithmetic on both sides (`\frac12 = 0.5`).
 * `a + 3z = 0` is an equation, not a name for 0.
 */
export function isDefinition(r: RelationNode): boolean {
  const arithmetic = (s: string): boolean => !/[a-zA-Z]/.test(s.replace(/\\[a-zA-Z]+/g, ''));
  if (arithmetic(r.lhs)) return arithmetic(r.rhs);
  const bare = r.lhs
    .replace(/_\{[^{}]*\}|_[a-zA-Z0-9]/g, '')
    .replace(/\\[a-zA-Z]+/g, '')
    .replace(/([a-zA-Z])\([^()]*\)/g, '$1');
  return /[a-zA-Z]/.test(bare) && !/[-+^*\d]/.test(bare);
}

/** `1,22` against `1.22`: a two-number list read with a decimal comma, only when the other side is a decimal. */
function decimalComma(list: AnswerNode, other: AnswerNode): Tri {
  if (list.kind !== 'list' || list.items.length !== 2 || other.kind !== 'atom') return null;
  const [a, b] = list.items;
  if (a?.kind !== 'atom' || b?.kind !== 'atom' || !/^-?\d+$/.test(a.text) || !/^\d+$/.test(b.text)) return null;
  const target = parseNumber(other.text);
  if (target === null || target.decimals === null || target.decimals === 0) return null;
  const read = parseNumber(`${a.text}.${b.text}`);
  return read === null ? null : numbersEqual(read, target);
}

/** Drops one-item wrappers and flattens lists inside lists and sets (`\{1 \pm \sqrt5, -2\}`). */
function simplify(node: AnswerNode): AnswerNode {
  if (node.kind !== 'list' && node.kind !== 'set') return node;
  const items = node.items.flatMap((item) => (item.kind === 'list' && item.spread === true ? item.items : [item]));
  if (node.kind === 'list' && items.length === 1 && items[0] !== undefined) return simplify(items[0]);
  return node.kind === 'set' ? { kind: 'set', items } : { kind: 'list', items, spread: node.spread };
}

function allOf(checks: (() => Tri)[]): Tri {
  let unknown = false;
  for (const check of checks) {
    const r = check();
    if (r === false) return false;
    if (r === null) unknown = true;
  }
  return unknown ? null : true;
}

function anyOf(checks: (() => Tri)[]): Tri {
  let unknown = false;
  for (const check of checks) {
    const r = check();
    if (r === true) return true;
    if (r === null) unknown = true;
  }
  return unknown ? null : false;
}
