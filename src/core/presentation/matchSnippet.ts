/**
 * A search match in context: a short, one-line piece of the text around the first match, with
 * the matches inside it as ranges to highlight. The text stays data: the view writes it as text
 * and wraps the ranges itself (never as markup).
 */

/** A piece of a text, with highlight ranges relative to it. */
export interface MatchSnippet {
  /** The piece, line breaks and other control characters shown as spaces; `…` marks cut ends. */
  text: string;
  /** [start, end) within `text`. */
  ranges: [number, number][];
}

/** Characters of context shown before the first match. */
const BEFORE = 40;

/**
 * The snippet of `text` around `ranges` (matches in the text, in order; the first one is shown),
 * at most `width` characters of the text.
 */
export function matchSnippet(text: string, ranges: readonly [number, number][], width = 160): MatchSnippet {
  const first = ranges[0];
  let from = first ? Math.max(0, first[0] - BEFORE) : 0;
  let to = Math.min(text.length, from + width);
  // Never half of a surrogate pair at either end.
  if (from > 0 && isLowSurrogate(text.charCodeAt(from))) from--;
  if (to < text.length && isLowSurrogate(text.charCodeAt(to))) to++;
  const lead = from > 0 ? '…' : '';
  const body = text.slice(from, to).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  const shown: [number, number][] = [];
  for (const [start, end] of ranges) {
    const s = Math.max(start, from);
    const e = Math.min(end, to);
    if (e > s) shown.push([s - from + lead.length, e - from + lead.length]);
  }
  return { text: `${lead}${body}${to < text.length ? '…' : ''}`, ranges: shown };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
