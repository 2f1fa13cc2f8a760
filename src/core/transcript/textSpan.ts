/** Text spans trimmed of white space, for the step splitter and the transcript readers alike. */

/** `[start, end)` shrunk past white space at both ends. */
export function trimSpan(text: string, start: number, end: number): { start: number; end: number } {
  let s = start;
  let e = end;
  while (s < e && isSpace(text.charCodeAt(s))) s++;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  return { start: s, end: e };
}

/** Space, tab, line feed, carriage return, form feed, vertical tab, no-break space. */
export function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xa0;
}
