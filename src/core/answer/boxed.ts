/**
 * Finding `\boxed{...}` answers. Models often box several parts of one answer
 * (`\boxed{-2} and \boxed{1}`); those are read as one answer, while boxes separated by prose
 * (a first attempt, then a corrected one) are not.
 */

/** One `\boxed`/`\fbox` occurrence: the box command span and its content span. */
export interface BoxSpan {
  boxStart: number;
  boxEnd: number;
  contentStart: number;
  contentEnd: number;
}

/**
 * The box command. One backslash only: `\\+` here backtracked over every run of backslashes, which is
 * quadratic in a line of them; extra backslashes before a match (`\\boxed`) are added by hand.
 */
const BOX_COMMAND = /\\(?:boxed|fbox)(?![A-Za-z])/g;

/** The longest unbraced box argument looked at (`\boxed 5`): TeX takes one token. */
const MAX_BARE_ARGUMENT = 200;

/** Every box in `text`, in order; an unbalanced box runs to the end of the text. */
export function findBoxes(text: string): BoxSpan[] {
  const found: { boxStart: number; at: number; isBraced: boolean }[] = [];
  for (const match of text.matchAll(BOX_COMMAND)) {
    let boxStart = match.index;
    while (boxStart > 0 && text[boxStart - 1] === '\\') boxStart--;
    let i = match.index + match[0].length;
    while (i < text.length && text[i] === ' ') i++;
    if (text[i] === '{') found.push({ boxStart, at: i, isBraced: true });
    else if (i > match.index + match[0].length) found.push({ boxStart, at: i, isBraced: false });
  }
  // One pass closes every braced box: unclosed boxes must not cost one scan to the end each.
  const closes = closingBraces(text, found.filter((f) => f.isBraced).map((f) => f.at));
  const boxes: BoxSpan[] = [];
  for (const { boxStart, at, isBraced } of found) {
    if (isBraced) {
      const close = closes.get(at) ?? -1;
      boxes.push({ boxStart, boxEnd: close < 0 ? text.length : close + 1, contentStart: at + 1, contentEnd: close < 0 ? text.length : close });
      continue;
    }
    // `\boxed 5`: TeX takes the next token, which in practice runs to a space, `$` or the end.
    const rest = /^[^\s$]+/.exec(text.slice(at, at + MAX_BARE_ARGUMENT));
    if (rest === null) continue;
    const contentEnd = at + rest[0].replace(/[.,;]+$/, '').length;
    boxes.push({ boxStart, boxEnd: contentEnd, contentStart: at, contentEnd });
  }
  return boxes;
}

/**
 * The `}` closing each `{` at `opens` (ascending), found in one scan that skips escaped characters
 * as {@link matchingBrace} does; an open brace that is never closed is absent from the map.
 */
export function closingBraces(text: string, opens: readonly number[]): Map<number, number> {
  const closes = new Map<number, number>();
  if (opens.length === 0) return closes;
  /** Boxes still open, with the depth that closes each. */
  const pending: { at: number; depth: number }[] = [];
  let next = 0;
  let depth = 0;
  for (let i = opens[0] ?? 0; i < text.length; i++) {
    while (next < opens.length && (opens[next] ?? 0) < i) next++;
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '{') {
      if (opens[next] === i) pending.push({ at: i, depth });
      depth++;
    } else if (ch === '}') {
      depth--;
      while (pending.length > 0 && pending[pending.length - 1]?.depth === depth) closes.set(pending.pop()?.at ?? -1, i);
      if (pending.length === 0 && next >= opens.length) break;
    }
  }
  return closes;
}

/** Index of the `}` closing the `{` at `open`, skipping escaped braces; -1 when unbalanced. */
export function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

const GAP_NOISE = /\\(?:quad|qquad|text|textnormal|mbox|mathrm)\b|\\[,;:! ]|\\[()[\]]|[${}\s,;.]/g;

/**
 * Whether the text between two boxes only separates parts of one answer: empty, punctuation,
 * spacing commands, or a few words that include a joining word (`and`, `or`).
 */
export function isJoiningGap(gap: string): boolean {
  const words = gap.replace(GAP_NOISE, ' ').trim().split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return true;
  if (words.length > 4) return false;
  return words.some((w) => /^(?:and|or)$/i.test(w));
}

/** The last box together with the boxes just before it that belong to the same answer. */
export function lastBoxGroup(text: string, boxes: readonly BoxSpan[]): BoxSpan[] {
  const last = boxes[boxes.length - 1];
  if (last === undefined) return [];
  // Collected backwards and reversed once: `unshift` per box was quadratic in a line of boxes.
  const group = [last];
  for (let k = boxes.length - 2; k >= 0; k--) {
    const prev = boxes[k];
    const next = group[group.length - 1];
    if (prev === undefined || next === undefined) break;
    if (prev.boxEnd > next.boxStart) break;
    if (!isJoiningGap(text.slice(prev.boxEnd, next.boxStart))) break;
    group.push(prev);
  }
  return group.reverse();
}
