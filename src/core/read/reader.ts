/**
 * Turning file text into records, one JSON value each, with a diagnostic for every line that
 * cannot be read. A bad line never stops the rest of the file from being read.
 */
import type { Diagnostic, SourceRecord } from '../model';
import { parseLenient } from './lenientJson';
import { scanJsonArray } from './jsonArray';
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

/** Result of reading one line. */
export type LineResult =
  | { kind: 'record'; record: SourceRecord; diagnostic?: Diagnostic }
  | { kind: 'blank' }
  | { kind: 'bad'; diagnostic: Diagnostic };

/** Split decoded text into lines as VS Code does (`\r\n`, `\n`, lone `\r`), a leading BOM dropped. */
export function* splitLines(text: string): Generator<TextLine> {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const breaks = new LineBreakScanner(text);
  for (let line = 1; start <= text.length; line++) {
    const at = breaks.find(start);
    if (!at) {
      if (start < text.length) yield { line, raw: text.slice(start), terminated: false };
      return;
    }
    const result: TextLine = { line, raw: text.slice(start, at.end), terminated: true };
    if (at.isLoneCr) result.endsAtLoneCr = true;
    yield result;
    start = at.next;
  }
}

/** Whitespace only? Checked without copying: lines can be megabytes long. */
function isBlank(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11) return false;
  }
  return true;
}

/** Parse one JSONL line into a record, or say clearly why it cannot be one. */
export function readLine(text: TextLine): LineResult {
  if (text.tooLongBytes !== undefined) return { kind: 'bad', diagnostic: tooLong(text, text.tooLongBytes) };
  if (text.unreadable !== undefined) return { kind: 'bad', diagnostic: { line: text.line, severity: 'error', code: 'unreadable-row', message: text.unreadable } };
  const raw = text.raw;
  if (isBlank(raw)) return { kind: 'blank' };
  const parsed = parseLenient(raw);
  if (!parsed.ok) return { kind: 'bad', diagnostic: badJson(text, parsed.message, parsed.position) };
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      kind: 'bad',
      diagnostic: {
        line: text.line,
        severity: 'error',
        code: 'not-object',
        message: `line ${text.line}: expected a JSON object (one rollout or one prompt's group), found ${describe(value)}`,
      },
    };
  }
  const record: SourceRecord = { line: text.line, raw, value };
  const diagnostic = lineWarning(text, parsed.hadNonFinite);
  return diagnostic ? { kind: 'record', record, diagnostic } : { kind: 'record', record };
}

function tooLong(text: TextLine, bytes: number): Diagnostic {
  return {
    line: text.line,
    severity: 'error',
    code: 'line-too-long',
    message: `line ${text.line} is ${megabytes(bytes)} long, over the ${megabytes(MAX_LINE_BYTES)} limit for one line: it is not read`,
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toLocaleString('en-US', { maximumFractionDigits: 0 })} MB`;
}

function lineWarning(text: TextLine, hadNonFinite: boolean): Diagnostic | undefined {
  if (text.invalidUtf8) {
    return {
      line: text.line,
      severity: 'warning',
      code: 'invalid-utf8',
      message: `line ${text.line}: bytes that are not valid UTF-8 were read as U+FFFD`,
    };
  }
  if (hadNonFinite) {
    return {
      line: text.line,
      severity: 'info',
      code: 'non-finite',
      message: `line ${text.line}: NaN/Infinity literals (not JSON) were read as null`,
    };
  }
  return undefined;
}

function badJson(text: TextLine, message: string, position: number | null): Diagnostic {
  const truncated = !text.terminated;
  const loneCr = text.endsAtLoneCr ? ' (the line ends at a lone carriage return, \\r, which VS Code and Python read as a line break)' : '';
  const what = truncated
    ? `line ${text.line}: the last line is not complete JSON (the file may have been cut off while being written): ${message}`
    : `line ${text.line}: expected one JSON object per line: ${message}${loneCr}`;
  const diagnostic: Diagnostic = { line: text.line, severity: 'error', code: truncated ? 'truncated' : 'bad-json', message: what };
  if (position !== null) {
    diagnostic.start = Math.min(position, text.raw.length);
    diagnostic.end = Math.min(position + 1, text.raw.length);
  }
  return diagnostic;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return `a ${typeof value}`;
}

/** Records and diagnostics of a whole text, JSONL or a JSON document (array or single object). */
export interface ReadResult {
  records: SourceRecord[];
  diagnostics: Diagnostic[];
}

/** Read a whole text. `.json` files (or text starting with `[`) are read as one JSON document. */
export function readText(text: string, fileName = ''): ReadResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const looksLikeDocument = /\.json$/i.test(fileName) || /^\s*\[/.test(body);
  if (looksLikeDocument) {
    const scanned = scanJsonArray(body);
    if (scanned) return scanned;
    if (/\.json$/i.test(fileName)) return readSingleDocument(body);
  }
  return readLines(splitLines(text));
}

/**
 * Records and diagnostics of JSONL lines (a whole text's, or one streamed batch's); `onRecordLine`
 * sees each line that gave a record (the editor's worker indexes them).
 */
export function readLines<L extends TextLine>(lines: Iterable<L>, onRecordLine?: (line: L) => void): ReadResult {
  const records: SourceRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const line of lines) {
    const result = readLine(line);
    if (result.kind === 'record') {
      records.push(result.record);
      onRecordLine?.(line);
      if (result.diagnostic) diagnostics.push(result.diagnostic);
    } else if (result.kind === 'bad') diagnostics.push(result.diagnostic);
  }
  return { records, diagnostics };
}

/** A `.json` file holding one object (or, failing that, JSONL misnamed `.json`). */
function readSingleDocument(body: string): ReadResult {
  const parsed = parseLenient(body);
  if (parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) {
    return { records: [{ line: 1, raw: body.trim(), value: parsed.value }], diagnostics: [] };
  }
  return readText(body, '');
}
