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

const BOX_COMMAND = /\\+(?:boxed|fbox)(?![A-Za-z])/g;

/** Every box in `text`, in order; an unbalanced box runs to the end of the text. */
export function findBoxes(text: string): BoxSpan[] {
  const boxes: BoxSpan[] = [];
  for (const match of text.matchAll(BOX_COMMAND)) {
    const boxStart = match.index;
    let i = boxStart + match[0].length;
    while (i < text.length && text[i] === ' ') i++;
    if (text[i] === '{') {
      const close = matchingBrace(text, i);
      const contentEnd = close < 0 ? text.length : close;
      boxes.push({ boxStart, boxEnd: close < 0 ? text.length : close + 1, contentStart: i + 1, contentEnd });
    } else if (i > boxStart + match[0].length) {
      // `\boxed 5`: TeX takes the next token, which in practice runs to a space, `$` or the end.
      const rest = /^[^\s$]+/.exec(text.slice(i));
      if (rest === null) continue;
      const contentEnd = i + rest[0].replace(/[.,;]+$/, '').length;
      boxes.push({ boxStart, boxEnd: contentEnd, contentStart: i, contentEnd });
    }
  }
  return boxes;
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
  const group = [last];
  for (let k = boxes.length - 2; k >= 0; k--) {
    const prev = boxes[k];
    const next = group[0];
    if (prev === undefined || next === undefined) break;
    if (prev.boxEnd > next.boxStart) break;
    if (!isJoiningGap(text.slice(prev.boxEnd, next.boxStart))) break;
    group.unshift(prev);
  }
  return group;
}
