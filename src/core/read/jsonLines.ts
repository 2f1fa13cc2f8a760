/**
 * The one line reader: what a line of a JSON Lines file is, wherever its text comes from (a
 * document's text here, a file's bytes in `byteLines.ts`). Every place that turns a text or bytes
 * into lines takes these definitions from here: where a line ends (`lineBreaks.ts`, as VS Code
 * counts), the BOM, blank lines, the length limit and its message, and the terminator a verbatim
 * copy keeps.
 */
import type { Diagnostic } from '../model';
import { LineBreakScanner } from './lineBreaks';

/** One physical line of a text file. */
export interface TextLine {
  /** 1-based line number. */
  line: number;
  /** Text without the terminator (`\r\n`, `\n` or a lone `\r`). */
  raw: string;
  /** False for a last line that has no newline after it (possibly truncated). */
  terminated: boolean;
  /** The line ended at a lone `\r`, which VS Code (and Python's text mode) read as a line break. */
  endsAtLoneCr?: boolean;
  /** The line's bytes were not valid UTF-8 (bad bytes were replaced with U+FFFD). */
  invalidUtf8?: boolean;
  /** The line is longer than `MAX_LINE_BYTES`: it was not read (`raw` is empty), only its length counted. */
  tooLongBytes?: number;
  /**
   * The line could not be made (a parquet row with a cell over the limits): `raw` is empty and
   * this says why, naming the row; it becomes the line's diagnostic.
   */
  unreadable?: string;
}

/**
 * The longest line read, in bytes. V8 cannot hold a string much longer than 512 M characters, and
 * a line of a quarter of that is no rollout anyone wrote (a NUL-filled tail of a crashed writer is
 * what reaches it): such a line is a diagnostic that names it, and the rest of the file is read.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

/** The diagnostic of a line over the length limit, naming its line and its length. */
export function lineTooLong(line: number, bytes: number): Diagnostic {
  return {
    line,
    severity: 'error',
    code: 'line-too-long',
    message: `line ${line} is ${megabytes(bytes)} long, over the ${megabytes(MAX_LINE_BYTES)} limit for one line: it is not read`,
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toLocaleString('en-US', { maximumFractionDigits: 0 })} MB`;
}

/** Whitespace only (a blank line, which is skipped without a diagnostic)? Checked without copying: lines can be megabytes long. */
export function isBlankLine(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11) return false;
  }
  return true;
}

/** `text` without a leading byte order mark (a decoded file's first line only). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Length of the UTF-8 byte order mark `bytes` start with: 3, or 0 without one. */
export function bomLength(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** Length of the terminator a line's bytes end with: 2 for `\r\n`, 1 for `\n` or a lone `\r`, 0 for an unterminated last line. */
export function terminatorLength(bytes: Uint8Array): number {
  const n = bytes.length;
  if (bytes[n - 1] === 10) return bytes[n - 2] === 13 ? 2 : 1;
  return bytes[n - 1] === 13 ? 1 : 0;
}

/**
 * Split decoded text into lines as VS Code does (`\r\n`, `\n`, lone `\r`), a leading BOM dropped.
 * A line whose UTF-8 form is over `MAX_LINE_BYTES` is not copied out (`tooLongBytes`), as when it
 * is read from bytes.
 */
export function* splitLines(text: string): Generator<TextLine> {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let start = bom;
  const breaks = new LineBreakScanner(text);
  for (let line = 1; start <= text.length; line++) {
    const at = breaks.find(start);
    // An empty last line is no line, but for a BOM alone: its bytes are line 1's, as in a file's bytes.
    if (!at && start >= text.length && !(line === 1 && bom)) return;
    const end = at ? at.end : text.length;
    const result = textLine(text, { line, start, end, terminated: at !== null });
    if (at?.isLoneCr) result.endsAtLoneCr = true;
    yield result;
    if (!at) return;
    start = at.next;
  }
}

function textLine(text: string, at: { line: number; start: number; end: number; terminated: boolean }): TextLine {
  // A character is at most 3 UTF-8 bytes per UTF-16 unit: only a line that long is measured.
  const bytes = (at.end - at.start) * 3 > MAX_LINE_BYTES ? utf8Length(text, at.start, at.end) : 0;
  if (bytes > MAX_LINE_BYTES) return { line: at.line, raw: '', terminated: at.terminated, tooLongBytes: bytes };
  return { line: at.line, raw: text.slice(at.start, at.end), terminated: at.terminated };
}

/** UTF-8 length of `text[from, to)` (a lone surrogate counts as U+FFFD's 3 bytes). */
function utf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < to && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
