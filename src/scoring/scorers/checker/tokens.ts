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

const WORD = /[\p{L}_'\u2019]+/uy;

/** Split text into tokens in one pass, dispatching on each token's first character. Never throws. */
export function tokenize(text: string): Token[] {
  return tokenizeRange(text, 0, text.length);
}

/**
 * `tokenize(text)` without its spaces. A text of digits alone (most sides of a calculator note) is
 * one number token, made without reading it token by token.
 */
export function significantTokens(text: string): Token[] {
  if (isDigits(text)) return [new ReadToken('num', text, 0, text.length, undefined)];
  const tokens = tokenize(text);
  let spaces = 0;
  for (const t of tokens) if (t.kind === 'space') spaces++;
  return spaces === 0 ? tokens : tokens.filter((t) => t.kind !== 'space');
}

function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/**
 * The tokens of `text` from `start` to `end`, both token boundaries (see `relationWindows`): the
 * same tokens, with the same offsets, as that stretch of `tokenize(text)`.
 */
export function tokenizeRange(text: string, start: number, end: number): Token[] {
  const tokens: Token[] = [];
  const numbers = new NumberReader(text);
  let i = start;
  while (i < end) {
    const token = readToken(text, i, numbers);
    tokens.push(token);
    i = token.end;
  }
  return rewriteWordOperators(tokens);
}

/**
 * Every token has the same fields in the same order (`hasNewline` is undefined but for spaces, and
 * so absent from its JSON), so that the code reading tokens sees one shape.
 */
class ReadToken implements Token {
  constructor(
    readonly kind: TokenKind,
    readonly text: string,
    readonly start: number,
    readonly end: number,
    readonly hasNewline: boolean | undefined,
  ) {}
}

function make(text: string, i: number, kind: TokenKind, length: number, normal?: string): Token {
  return new ReadToken(kind, normal ?? text.slice(i, i + length), i, i + length, undefined);
}

function readToken(text: string, i: number, numbers: NumberReader): Token {
  const code = text.charCodeAt(i);
  const next = text.charCodeAt(i + 1);
  switch (code) {
    case 32: case 9: case 10: case 11: case 12: case 13:
      return readSpace(text, i);
    // Pairs that look like `=` but are not an equality (`<=`, `==`, `=>`, `:=`, `!=`).
    case 60: case 62: case 58:
      return make(text, i, 'other', next === 61 ? 2 : 1);
    case 33:
      return next === 61 ? make(text, i, 'other', 2) : make(text, i, 'bang', 1);
    case 61:
      return next === 61 || next === 62 || next === 60 ? make(text, i, 'other', 2) : make(text, i, 'eq', 1);
    case 46: {
      const length = numbers.lengthAt(i);
      return make(text, i, length > 0 ? 'num' : 'other', length > 0 ? length : 1);
    }
    case 42:
      return next === 42 ? make(text, i, 'op', 2, '^') : make(text, i, 'op', 1, '*');
    case 43: return make(text, i, 'op', 1, '+');
    case 45: return make(text, i, 'op', 1, '-');
    case 47: return make(text, i, 'op', 1, '/');
    case 94: return make(text, i, 'op', 1, '^');
    case 126:
      return make(text, i, next === 61 ? 'approx' : 'other', next === 61 ? 2 : 1);
    case 40: case 91: return make(text, i, 'lparen', 1, '(');
    case 41: case 93: return make(text, i, 'rparen', 1, ')');
    case 37: return make(text, i, 'percent', 1);
    case 36: return make(text, i, isMoney(text, i) ? 'money' : 'other', 1);
    default:
  }
  if (code >= 48 && code <= 57) return make(text, i, 'num', numbers.lengthAt(i));
  if (code >= 128) {
    if (isSpaceCode(code)) return readSpace(text, i);
    const c = text[i] ?? '';
    const op = OPERATORS[c];
    if (op !== undefined) return make(text, i, 'op', 1, op);
    if (code === 0x2248 || code === 0x2243 || code === 0x2245) return make(text, i, 'approx', 1);
    if (code === 0x221a) return make(text, i, 'sqrt', 1);
    if (SUPERSCRIPTS.includes(c)) return readSuperscript(text, i);
    if ((code === 0x20ac || code === 0xa3 || code === 0xa5 || code === 0x20b9) && isMoney(text, i)) return make(text, i, 'money', 1);
  }
  const word = readWordLength(text, i, code);
  return word > 0 ? make(text, i, 'word', word) : make(text, i, 'other', 1);
}

/** `$5`, `€ 3`: after the currency sign at `i`, an optional whitespace character, a digit. */
function isMoney(text: string, i: number): boolean {
  const after = isSpaceCode(text.charCodeAt(i + 1)) ? i + 2 : i + 1;
  return isDigit(text, after);
}

/** Exactly the characters of `\s` (ECMAScript WhiteSpace and LineTerminator); NaN (past the end) is not. */
export function isSpaceCode(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029
    || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
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

/** Letters, `_` and apostrophes from `i` (0 when none): ASCII by hand, the rest by the Unicode class. */
function readWordLength(text: string, i: number, code: number): number {
  if (code < 128) {
    let j = i;
    for (let k = code; isAsciiWordCode(k); k = text.charCodeAt(++j));
    if (j === i || !(text.charCodeAt(j) >= 128)) return j - i;
  }
  WORD.lastIndex = i;
  const match = WORD.exec(text);
  return match ? match[0].length : 0;
}

function isAsciiWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === 39;
}

function readSpace(text: string, i: number): Token {
  let end = i;
  let newlines = 0;
  while (end < text.length && isSpaceCode(text.charCodeAt(end))) {
    if (text.charCodeAt(end) === 10) newlines++;
    end++;
  }
  const kind: TokenKind = newlines >= 2 ? 'break' : 'space';
  return new ReadToken(kind, text.slice(i, end), i, end, newlines > 0);
}

function readSuperscript(text: string, i: number): Token {
  let end = i;
  let digits = '';
  while (end < text.length && SUPERSCRIPTS.includes(text[end] ?? '')) {
    digits += String(SUPERSCRIPTS.indexOf(text[end] ?? ''));
    end++;
  }
  return new ReadToken('sup', digits, i, end, undefined);
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
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (t.kind !== 'word' || (t.text !== 'x' && t.text !== 'X' && t.text !== 'of')) continue;
    const before = neighbour(tokens, k, -1);
    const after = neighbour(tokens, k, 1);
    if (!before || !after || !OPERAND_START.has(after.kind)) continue;
    const isTimes = (t.text === 'x' || t.text === 'X') && OPERAND_END.has(before.kind) && before.kind !== 'percent';
    const isOf = t.text === 'of' && (before.kind === 'percent' || isSimpleFractionEnd(tokens, k));
    // In place: a word rewritten here is followed by an operand, so it is never what a later word is decided by.
    if (isTimes || isOf) tokens[k] = { ...t, kind: 'op', text: '*' };
  }
  return tokens;
}

function isSimpleFractionEnd(tokens: readonly Token[], wordAt: number): boolean {
  const [a, slash, b, gap] = [tokens[wordAt - 4], tokens[wordAt - 3], tokens[wordAt - 2], tokens[wordAt - 1]];
  return a?.kind === 'num' && slash?.text === '/' && b?.kind === 'num' && gap?.kind === 'space';
}
