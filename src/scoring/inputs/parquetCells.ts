/**
 * A parquet row as the text of one JSON object, the way a JSON Lines file would hold it, under
 * the same limits as a line: so the reader, the group keys, `filter` and `score` treat a row as a
 * line. What the row's values become:
 * - 64-bit integers: their exact decimal text (an id above 2^53 stays that id, as JSONL ids do);
 * - NaN and infinities (a reward function's None): null; bytes: `"<n bytes>"`;
 * - timestamps and dates: ISO text, or for one outside a date's range its count and unit as text;
 * - JSON cells: their own text, checked to be JSON and no deeper than MAX_CELL_DEPTH;
 * - a text over the line limit is never decoded (`OversizedCell`): the row is named instead.
 * Dictionary-encoded values are one string shared by every row that holds them; their JSON text is
 * made once per distinct long value (`TextCache`), not once per row.
 */
import { MAX_LINE_BYTES } from '../../core/read/jsonLines';

/** Nesting allowed inside one cell (a JSON cell or a list/struct column). */
export const MAX_CELL_DEPTH = 1_000;

/** A text or JSON cell too long to be one string of a row: only its size is kept. */
export class OversizedCell {
  constructor(readonly bytes: number) {}
}

/** A JSON cell's text, checked: it is written into the row as it is. */
export class JsonCell {
  constructor(readonly text: string) {}
}

/** A cell that cannot be part of a row, and why (the row is then named, not read). */
export class BadCell {
  constructor(readonly why: string) {}
}

const decoder = new TextDecoder();

/** A file's size in KB under a megabyte, else in MB. */
export function sizeText(bytes: number): string {
  return bytes < 1048576 ? `${Math.ceil(bytes / 1024).toLocaleString('en-US')} KB` : megabytes(bytes, 1);
}

/** `bytes` in MB, with `digits` decimals at most. */
export function megabytes(bytes: number, digits = 0): string {
  return `${(bytes / 1048576).toLocaleString('en-US', { maximumFractionDigits: digits })} MB`;
}

/** A count of `unit`s since 1970 as a date's ISO text, or as the count itself when no date holds it. */
function dateText(count: bigint | number, perMs: bigint, unit: string): string {
  const whole = typeof count === 'bigint' ? count : BigInt(Number.isFinite(count) ? Math.trunc(count) : 0);
  const ms = whole / perMs;
  // ±8.64e15 ms is the range of a JavaScript date (about ±273,790 years).
  if (ms >= -8_640_000_000_000_000n && ms <= 8_640_000_000_000_000n) return new Date(Number(ms)).toISOString();
  return `${whole} ${unit} since 1970-01-01 (outside the range of a date)`;
}

/** The deepest nesting of a JSON text, found in one pass (strings skipped); stops past `limit`. */
function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 91 || c === 123) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}

/** The parsers hyparquet decodes cells with: none of them throws on what a file holds. */
export function cellParsers(maxChars: number) {
  return {
    timestampFromMilliseconds: (v: bigint) => dateText(v, 1n, 'ms'),
    timestampFromMicroseconds: (v: bigint) => dateText(v, 1000n, 'µs'),
    timestampFromNanoseconds: (v: bigint) => dateText(v, 1_000_000n, 'ns'),
    dateFromDays: (days: number) => (Number.isFinite(days) && Math.abs(days) <= 100_000_000 ? new Date(days * 86_400_000).toISOString().slice(0, 10) : `${days} days since 1970-01-01 (outside the range of a date)`),
    stringFromBytes: (bytes: Uint8Array | undefined) => (bytes === undefined ? bytes : bytes.length > maxChars ? new OversizedCell(bytes.length) : decoder.decode(bytes)),
    jsonFromBytes: (bytes: Uint8Array | undefined): unknown => (bytes === undefined ? bytes : jsonCell(bytes, maxChars)),
  };
}

function jsonCell(bytes: Uint8Array, maxChars: number): unknown {
  if (bytes.length > maxChars) return new OversizedCell(bytes.length);
  const text = decoder.decode(bytes);
  if (jsonDepth(text, MAX_CELL_DEPTH) > MAX_CELL_DEPTH) return new BadCell(`is JSON nested more than ${MAX_CELL_DEPTH.toLocaleString('en-US')} deep`);
  try {
    JSON.parse(text);
  } catch {
    // Not JSON after all: kept as the text it is.
    return text.trim() === '' ? null : text;
  }
  return new JsonCell(text.trim());
}

/** JSON texts of long strings seen lately: a dictionary value shared by many rows is encoded once. */
export class TextCache {
  private readonly texts = new Map<string, string>();

  json(value: string): string {
    if (value.length < 4096) return JSON.stringify(value);
    let text = this.texts.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      if (this.texts.size >= 64) this.texts.clear();
      this.texts.set(value, text);
    }
    return text;
  }
}

/** One row's text, or why it is not read. */
export type RowText = { text: string } | { problem: string };

/**
 * `row` as one JSON object's text. Every part is measured before it is joined, so a row whose
 * text would pass MAX_LINE_BYTES is named with its size and never built.
 */
export function rowText(row: Record<string, unknown>, cache: TextCache, maxChars = MAX_LINE_BYTES): RowText {
  const parts: string[] = [];
  let length = 2;
  for (const name of Object.keys(row)) {
    const cell = cellText(row[name], { cache, maxChars }, 0);
    if (typeof cell !== 'string') {
      const what = cell instanceof OversizedCell ? `holds ${megabytes(cell.bytes)}, over the ${megabytes(maxChars)} limit for one row` : cell.why;
      return { problem: `column ${JSON.stringify(name.slice(0, 200))} ${what}: the row is not read` };
    }
    length += name.length + cell.length + 4;
    if (length > maxChars) return { problem: `its text comes to more than the ${megabytes(maxChars)} limit for one row: the row is not read` };
    parts.push(`${JSON.stringify(name)}:${cell}`);
  }
  return { text: `{${parts.join(',')}}` };
}

function cellText(value: unknown, at: { cache: TextCache; maxChars: number }, depth: number): string | OversizedCell | BadCell {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return value.length > at.maxChars ? new OversizedCell(value.length) : at.cache.json(value);
  if (value instanceof JsonCell) return value.text;
  if (value instanceof OversizedCell || value instanceof BadCell) return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'null' : JSON.stringify(value.toISOString());
  if (value instanceof Uint8Array) return `"<${value.length} bytes>"`;
  if (typeof value !== 'object') return JSON.stringify(String(value));
  if (depth >= MAX_CELL_DEPTH) return new BadCell(`nests more than ${MAX_CELL_DEPTH.toLocaleString('en-US')} deep`);
  const isList = Array.isArray(value) || ArrayBuffer.isView(value);
  const entries: [string | null, unknown][] = isList ? Array.from(value as ArrayLike<unknown>, (v) => [null, v]) : Object.entries(value);
  const parts: string[] = [];
  let length = 2;
  for (const [key, item] of entries) {
    const text = cellText(item, at, depth + 1);
    if (typeof text !== 'string') return text;
    length += text.length + (key === null ? 1 : key.length + 4);
    if (length > at.maxChars) return new OversizedCell(length);
    parts.push(key === null ? text : `${JSON.stringify(key)}:${text}`);
  }
  return isList ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
}
