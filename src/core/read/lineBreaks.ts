/**
 * Line breaks as VS Code counts them: `\r\n`, `\n` and a lone `\r` each end a line. Every line
 * number and offset PROF Lens shows in the editor is computed with these rules, so a lone `\r`
 * (valid JSON whitespace, and a line break to VS Code and to Python's text mode) never shifts a
 * decoration onto another line. Works on strings and on bytes; no Node API.
 */

/** Where a line ends and the next one starts. */
export interface LineBreak {
  /** Offset just past the line's last character (the terminator is not part of the line). */
  end: number;
  /** Offset of the next line's first character. */
  next: number;
  /** The line ended at a lone `\r`. */
  isLoneCr: boolean;
}

const LF = 10;
const CR = 13;

/**
 * Finds line breaks from left to right in one text, in linear time overall: the next `\r` and
 * `\n` are each searched for once and remembered until the scan passes them.
 */
export class LineBreakScanner {
  private nextLf = -2;
  private nextCr = -2;

  constructor(private readonly text: string | Uint8Array) {}

  /** The first line break at or after `from`, or null when the text has none. */
  find(from: number): LineBreak | null {
    if (this.nextLf !== -1 && this.nextLf < from) this.nextLf = this.indexOf(LF, from);
    if (this.nextCr !== -1 && this.nextCr < from) this.nextCr = this.indexOf(CR, from);
    const lf = this.nextLf;
    const cr = this.nextCr;
    if (cr !== -1 && (lf === -1 || cr < lf)) {
      return cr + 1 === lf ? { end: cr, next: lf + 1, isLoneCr: false } : { end: cr, next: cr + 1, isLoneCr: true };
    }
    return lf === -1 ? null : { end: lf, next: lf + 1, isLoneCr: false };
  }

  private indexOf(code: number, from: number): number {
    return typeof this.text === 'string' ? this.text.indexOf(code === LF ? '\n' : '\r', from) : this.text.indexOf(code, from);
  }
}

/**
 * Number of line breaks that start in `text[from, to)`: every `\r`, and every `\n` not preceded by
 * `\r` (a `\r\n` is one break). Consecutive ranges add up to the count of their union.
 */
export function countLineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === CR || (c === LF && text.charCodeAt(i - 1) !== CR)) count++;
  }
  return count;
}

/** Splits text into lines the way VS Code does (`\r\n`, `\n`, lone `\r`). */
export function splitTextLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
