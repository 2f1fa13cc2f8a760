/**
 * Turning file text into records, one JSON value each, with a diagnostic for every line that
 * cannot be read. A bad line never stops the rest of the file from being read.
 */
import type { Diagnostic, SourceRecord } from '../model';
import { parseLenient } from './lenientJson';
import { scanJsonArray } from './jsonArray';
import { isBlankLine, lineTooLong, splitLines, withoutBom, type TextLine } from './jsonLines';

/** Result of reading one line. */
export type LineResult =
  | { kind: 'record'; record: SourceRecord; diagnostic?: Diagnostic }
  | { kind: 'blank' }
  | { kind: 'bad'; diagnostic: Diagnostic };

/** Parse one JSONL line into a record, or say clearly why it cannot be one. */
export function readLine(text: TextLine): LineResult {
  if (text.tooLongBytes !== undefined) return { kind: 'bad', diagnostic: lineTooLong(text.line, text.tooLongBytes) };
  if (text.unreadable !== undefined) return { kind: 'bad', diagnostic: { line: text.line, severity: 'error', code: 'unreadable-row', message: text.unreadable } };
  const raw = text.raw;
  if (isBlankLine(raw)) return { kind: 'blank' };
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
  const body = withoutBom(text);
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
