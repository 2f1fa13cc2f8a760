/**
 * Tokens of plain-text arithmetic, shared by claim finding (which walks outwards from `=`) and by
 * the evaluator. Words, punctuation and line breaks are kept as tokens because they decide where
 * an expression starts and ends, which is where a naive checker goes wrong.
 */

export type TokenKind =
  | 'num'
  | 'op'
  | 'lparen'
  | 'rparen'
  | 'percent'
  | 'bang'
  | 'sqrt'
  | 'sup'
  | 'money'
  | 'eq'
  | 'approx'
  | 'word'
  | 'other'
  | 'space'
  | 'break';

/** One token; `text` is normalised for operators (`×` → `*`, `−` → `-`, `**` → `^`). */
export interface Token {
  kind: TokenKind;
  text: string;
  /** [start, end) in the tokenized string. */
  start: number;
  end: number;
  /** For `space`: whether it holds a line break. */
  hasNewline?: boolean;
}

/** Kinds that can sit inside an expression. */
export const EXPRESSION_KINDS: ReadonlySet<TokenKind> = new Set<TokenKind>([
  'num', 'op', 'lparen', 'rparen', 'percent', 'bang', 'sqrt', 'sup', 'money', 'space',
]);

const OPERATORS: Record<string, string> = {
  '+': '+', '-': '-', '\u2212': '-', '*': '*', '\u00d7': '*', '\u00b7': '*', '\u22c5': '*',
  '\u2219': '*', '/': '/', '\u00f7': '/', '^': '^',
};

const SUPERSCRIPTS = '\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079';

/** Pairs that look like `=` but are not an equality (`<=`, `==`, `=>`, `:=`, `!=`). */
const FAKE_EQUALS = /^(?:[<>!:=]=|=[=><])/;


const WORD = /^[\p{L}_'\u2019]+/u;

/** Split text into tokens. Never throws. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const numbers = new NumberReader(text);
  let i = 0;
  while (i < text.length) {
    const token = readToken(text, i, numbers);
    tokens.push(token);
    i = token.end;
  }
  return rewriteWordOperators(tokens);
}

function readToken(text: string, i: number, numbers: NumberReader): Token {
  const rest = text.slice(i, i + 64);
  const c = text[i] ?? '';
  const make = (kind: TokenKind, length: number, normal?: string): Token => ({
    kind,
    text: normal ?? text.slice(i, i + length),
    start: i,
    end: i + length,
  });
  const space = /^\s+/.exec(rest);
  if (space) return readSpace(text, i);
  const fake = FAKE_EQUALS.exec(rest);
  if (fake) return make('other', fake[0].length);
  const length = /\d|\./.test(c) ? numbers.lengthAt(i) : 0;
  if (length > 0) return make('num', length);
  if (rest.startsWith('**')) return make('op', 2, '^');
  const op = OPERATORS[c];
  if (op !== undefined) return make('op', 1, op);
  if (c === '=') return make('eq', 1);
  if (c === '\u2248' || c === '\u2243' || c === '\u2245') return make('approx', 1);
  if (rest.startsWith('~=')) return make('approx', 2);
  if (c === '(' || c === '[') return make('lparen', 1, '(');
  if (c === ')' || c === ']') return make('rparen', 1, ')');
  if (c === '%') return make('percent', 1);
  if (c === '!') return make('bang', 1);
  if (c === '\u221a') return make('sqrt', 1);
  if (SUPERSCRIPTS.includes(c)) return readSuperscript(text, i);
  if (/^[$\u20ac\u00a3\u00a5\u20b9]\s?\d/.test(rest)) return make('money', 1);
  const word = WORD.exec(rest);
  if (word) return make('word', readWordLength(text, i));
  return make('other', 1);
}

const isDigit = (text: string, i: number): boolean => text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57;

/**
 * Numbers as written: thousands groups need exactly three digits, so `1,000` is a number and
 * `(1,2)` is a pair. Read by hand: as a regex, a long `1,000,000,…,0001` chain was rescanned from
 * every token start inside it (quadratic); a chain that is not a number is remembered instead.
 */
class NumberReader {
  /** Starts before this lie in a comma chain already found not to be a thousands number. */
  private notThousandsBefore = -1;

  constructor(private readonly text: string) {}

  /** The length of the number starting at `i`, 0 when there is none. */
  lengthAt(i: number): number {
    const grouped = i < this.notThousandsBefore ? 0 : this.thousands(i);
    return grouped > 0 ? grouped : this.plain(i);
  }

  /** `1,000,000.5`: 1–3 digits, then groups of `,ddd`, not followed by a digit or comma. */
  private thousands(i: number): number {
    const text = this.text;
    let j = i;
    while (isDigit(text, j) && j - i < 4) j++;
    if (j - i < 1 || j - i > 3 || text[j] !== ',') return 0;
    let groups = 0;
    while (text[j] === ',' && isDigit(text, j + 1) && isDigit(text, j + 2) && isDigit(text, j + 3)) {
      j += 4;
      groups++;
    }
    if (groups === 0) return 0;
    if (isDigit(text, j) || text[j] === ',') {
      this.notThousandsBefore = j;
      return 0;
    }
    if (text[j] === '.' && isDigit(text, j + 1)) for (j += 1; isDigit(text, j); ) j++;
    return j - i;
  }

  /** `12`, `3.5`, `.5`: digits with optional decimals, or a point and digits. */
  private plain(i: number): number {
    const text = this.text;
    let j = i;
    while (isDigit(text, j)) j++;
    if (text[j] === '.' && isDigit(text, j + 1)) for (j += 1; isDigit(text, j); ) j++;
    return j - i;
  }
}

function readWordLength(text: string, i: number): number {
  const match = WORD.exec(text.slice(i));
  return match ? match[0].length : 1;
}

function readSpace(text: string, i: number): Token {
  let end = i;
  let newlines = 0;
  while (end < text.length && /\s/.test(text[end] ?? '')) {
    if (text[end] === '\n') newlines++;
    end++;
  }
  const kind: TokenKind = newlines >= 2 ? 'break' : 'space';
  return { kind, text: text.slice(i, end), start: i, end, hasNewline: newlines > 0 };
}

function readSuperscript(text: string, i: number): Token {
  let end = i;
  let digits = '';
  while (end < text.length && SUPERSCRIPTS.includes(text[end] ?? '')) {
    digits += String(SUPERSCRIPTS.indexOf(text[end] ?? ''));
    end++;
  }
  return { kind: 'sup', text: digits, start: i, end };
}

/** The nearest non-space token before or after index `at`, with its index. */
export function neighbour(tokens: readonly Token[], at: number, step: 1 | -1): Token | undefined {
  for (let k = at + step; k >= 0 && k < tokens.length; k += step) {
    const t = tokens[k];
    if (t && t.kind !== 'space') return t;
  }
  return undefined;
}

const OPERAND_END: ReadonlySet<TokenKind> = new Set<TokenKind>(['num', 'rparen', 'percent', 'sup']);
const OPERAND_START: ReadonlySet<TokenKind> = new Set<TokenKind>(['num', 'lparen', 'money', 'sqrt']);

/**
 * `3 x 4` means times, and `20% of 50` or `3/4 of 20` means a product; elsewhere `x` is a variable
 * and `of` a word, which keeps `2x + 3 = 7` out of the checker's way.
 */
function rewriteWordOperators(tokens: Token[]): Token[] {
  return tokens.map((t, k) => {
    if (t.kind !== 'word') return t;
    const before = neighbour(tokens, k, -1);
    const after = neighbour(tokens, k, 1);
    if (!before || !after || !OPERAND_START.has(after.kind)) return t;
    const isTimes = (t.text === 'x' || t.text === 'X') && OPERAND_END.has(before.kind) && before.kind !== 'percent';
    const isOf = t.text === 'of' && (before.kind === 'percent' || isSimpleFractionEnd(tokens, k));
    return isTimes || isOf ? { ...t, kind: 'op', text: '*' } : t;
  });
}

function isSimpleFractionEnd(tokens: readonly Token[], wordAt: number): boolean {
  const [a, slash, b, gap] = [tokens[wordAt - 4], tokens[wordAt - 3], tokens[wordAt - 2], tokens[wordAt - 1]];
  return a?.kind === 'num' && slash?.text === '/' && b?.kind === 'num' && gap?.kind === 'space';
}
