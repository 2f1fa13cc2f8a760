/**
 * Where in a plain text a claim can be: only around `=`, `≈`, `≃`, `≅` (and `~=`), and never
 * beyond the nearest word on either side, since a claim's sides stop at a word (a word that may
 * read as an operator, `x` or `of`, is looked through). The stretches between such words are
 * tokenized; the prose around them is not.
 *
 * Why the tokens are the same as the whole text's: a word token is always a whole run of word
 * characters (no other token holds a letter, `_` or an apostrophe), so a run's start and end are
 * token boundaries; and every token is read from the text at its start alone.
 */

const WORD_CHAR = /^[\p{L}_'\u2019]$/u;

/** [start, end) stretches, in order and disjoint, each from a word's start (or 0) to a word's end (or the text's end). */
export function relationWindows(text: string): { start: number; end: number }[] {
  const windows: { start: number; end: number }[] = [];
  let doneTo = 0;
  // Most texts hold no `≈`, `≃` or `≅`: their relations are found by `indexOf('=')` alone.
  const next = text.includes('\u2248') || text.includes('\u2243') || text.includes('\u2245') ? nextRelation : nextEquals;
  for (let r = next(text, 0); r < text.length; r = next(text, r + 1)) {
    if (r < doneTo) continue;
    const start = strongWordBefore(text, r);
    const end = strongWordAfter(text, r);
    const last = windows[windows.length - 1];
    if (last && start < last.end) last.end = end;
    else windows.push({ start, end });
    doneTo = end;
  }
  return windows;
}

const RELATION = /[=\u2248\u2243\u2245]/g;

function nextEquals(text: string, from: number): number {
  const at = text.indexOf('=', from);
  return at < 0 ? text.length : at;
}

function nextRelation(text: string, from: number): number {
  RELATION.lastIndex = from;
  const match = RELATION.exec(text);
  return match ? match.index : text.length;
}

/** Whether the character (code point) starting or ending at `i` is a word character, and its length. */
function wordCharAt(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === 39;
  return WORD_CHAR.test(codePointText(text, i));
}

/** The whole code point `i` belongs to (a surrogate pair read from either half). */
function codePointText(text: string, i: number): string {
  const code = text.charCodeAt(i);
  if (code >= 0xd800 && code <= 0xdbff && isLow(text.charCodeAt(i + 1))) return text.slice(i, i + 2);
  if (isLow(code) && i > 0 && isHigh(text.charCodeAt(i - 1))) return text.slice(i - 1, i + 1);
  return text[i] ?? '';
}

const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** Whether `text[start, end)` is `x`, `X` or `of`, read in place. */
function isWeak(text: string, start: number, end: number): boolean {
  if (end - start === 1) {
    const code = text.charCodeAt(start);
    return code === 120 || code === 88;
  }
  return end - start === 2 && text.charCodeAt(start) === 111 && text.charCodeAt(start + 1) === 102;
}

/** The start of the nearest word before `at` that cannot read as an operator; 0 when none. */
function strongWordBefore(text: string, at: number): number {
  let i = at - 1;
  while (i >= 0) {
    if (!wordCharAt(text, i)) {
      i--;
      continue;
    }
    const end = i + 1;
    while (i >= 0 && wordCharAt(text, i)) i--;
    if (!isWeak(text, i + 1, end)) return i + 1;
  }
  return 0;
}

/** The end of the nearest word after `at` that cannot read as an operator; the text's length when none. */
function strongWordAfter(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length) {
    if (!wordCharAt(text, i)) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && wordCharAt(text, i)) i++;
    if (!isWeak(text, start, i)) return i;
  }
  return text.length;
}
