/**
 * Finding a string value inside a raw JSON line and mapping offsets in its decoded text back to
 * offsets in the raw line. Escapes (`\n`, `\\`, `\"`, `\uXXXX`, surrogate pairs written as two
 * escapes) make the two differ; decorations in the editor need the raw ones.
 */
import type { RawLocation } from '../model';

/** A path into a JSON value: object keys and array indices. */
export type JsonPath = readonly (string | number)[];

/** Locate the string literal at `path` in `raw`; null when it is not there or not a string. */
export function locateString(raw: string, path: JsonPath): RawLocation | null {
  const pos = valueAt(raw, path);
  if (pos === -1 || raw.charCodeAt(pos) !== 34) return null;
  return { start: pos + 1, end: stringEnd(raw, pos) };
}

/** The raw text of the value at `path` (a number exactly as written, say); null when it is not there. */
export function rawValueText(raw: string, path: JsonPath): string | null {
  const pos = valueAt(raw, path);
  return pos === -1 ? null : raw.slice(pos, valueEnd(raw, pos));
}

/** [start, end) of the value at `path`; null when it is not there. */
export function locateValue(raw: string, path: JsonPath): { start: number; end: number } | null {
  const pos = valueAt(raw, path);
  return pos === -1 ? null : { start: pos, end: valueEnd(raw, pos) };
}

/** Offset of the value at `path`, or -1. */
function valueAt(raw: string, path: JsonPath): number {
  let pos = skipSpace(raw, 0);
  for (const key of path) {
    pos = typeof key === 'number' ? enterArray(raw, pos, key) : enterObject(raw, pos, key);
    if (pos === -1) return -1;
  }
  return pos;
}

/**
 * Offset of the value stored under `key` in the object starting at `pos`, or -1. When the key is
 * there more than once, the last one, as `JSON.parse` reads it: what was analysed is what is
 * decorated and edited, never a decoy written before it.
 */
function enterObject(raw: string, pos: number, key: string): number {
  if (raw.charCodeAt(pos) !== 123) return -1;
  let found = -1;
  let i = skipSpace(raw, pos + 1);
  while (i < raw.length && raw.charCodeAt(i) === 34) {
    const keyEnd = stringEnd(raw, i);
    const name = decodeKey(raw.slice(i, keyEnd + 1));
    i = skipSpace(raw, keyEnd + 1);
    if (raw.charCodeAt(i) !== 58) return found;
    i = skipSpace(raw, i + 1);
    if (name === key) found = i;
    i = skipSpace(raw, valueEnd(raw, i));
    if (raw.charCodeAt(i) !== 44) return found;
    i = skipSpace(raw, i + 1);
  }
  return found;
}

function enterArray(raw: string, pos: number, index: number): number {
  if (raw.charCodeAt(pos) !== 91) return -1;
  let i = skipSpace(raw, pos + 1);
  for (let k = 0; k < index; k++) {
    i = skipSpace(raw, valueEnd(raw, i));
    if (raw.charCodeAt(i) !== 44) return -1;
    i = skipSpace(raw, i + 1);
  }
  return raw.charCodeAt(i) === 93 ? -1 : i;
}

function decodeKey(literal: string): string | null {
  if (!literal.includes('\\')) return literal.slice(1, -1);
  try {
    return JSON.parse(literal) as string;
  } catch {
    return null;
  }
}

/** Offset just past the JSON value starting at `pos`. */
function valueEnd(raw: string, pos: number): number {
  const c = raw.charCodeAt(pos);
  if (c === 34) return stringEnd(raw, pos) + 1;
  if (c !== 123 && c !== 91) {
    let i = pos;
    while (i < raw.length && !',}] \t\r\n'.includes(raw[i] ?? '')) i++;
    return i;
  }
  let depth = 0;
  for (let i = pos; i < raw.length; i++) {
    const ch = raw.charCodeAt(i);
    if (ch === 34) i = stringEnd(raw, i);
    else if (ch === 123 || ch === 91) depth++;
    else if ((ch === 125 || ch === 93) && --depth === 0) return i + 1;
  }
  return raw.length;
}

/** Offset of the closing quote of the string literal whose opening quote is at `quote`. */
export function stringEnd(raw: string, quote: number): number {
  // From quote to quote (a native search), not character by character: a quote ends the string
  // unless an odd run of backslashes stands right before it.
  for (let from = quote + 1; ;) {
    const at = raw.indexOf('"', from);
    if (at === -1) return raw.length;
    let slashes = 0;
    while (at - slashes - 1 >= from && raw.charCodeAt(at - slashes - 1) === 92) slashes++;
    if (slashes % 2 === 0) return at;
    from = at + 1;
  }
}

function skipSpace(raw: string, from: number): number {
  let i = from;
  while (i < raw.length) {
    const c = raw.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    i++;
  }
  return i;
}

/**
 * Map decoded offsets (UTF-16 code units of the decoded string) to raw-line offsets, in one pass.
 * `offsets` need not be sorted; the result is in the same order. An offset equal to the decoded
 * length maps to the closing quote.
 */
export function decodedToRaw(raw: string, location: RawLocation, offsets: readonly number[]): number[] {
  const order = offsets.map((_, i) => i).sort((a, b) => (offsets[a] ?? 0) - (offsets[b] ?? 0));
  const result = new Array<number>(offsets.length).fill(location.end);
  let decoded = 0;
  let r = location.start;
  let k = 0;
  // Where the next escape is: the plain text before it decodes one to one, and is skipped whole.
  let escape = -1;
  while (k < order.length) {
    const idx = order[k] as number;
    const want = offsets[idx] as number;
    if (want <= decoded || r >= location.end) {
      result[idx] = want <= decoded ? r : location.end;
      k++;
      continue;
    }
    if (escape < r) {
      escape = raw.indexOf('\\', r);
      if (escape === -1 || escape > location.end) escape = location.end;
    }
    if (escape > r) {
      const plain = Math.min(escape - r, want - decoded);
      r += plain;
      decoded += plain;
      continue;
    }
    r += raw.charCodeAt(r) === 92 ? escapeWidth(raw, r) : 1;
    decoded++;
  }
  return result;
}

/** Raw width of the escape at `r` (each escape decodes to exactly one UTF-16 code unit). */
function escapeWidth(raw: string, r: number): number {
  return raw.charCodeAt(r + 1) === 117 /* u */ ? 6 : 2;
}

/** A member of the top-level object of a raw line: where its key and its value are. */
export interface RawMember {
  key: string | null;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

/** The members of the top-level object, in order; empty when the line is not an object. */
export function objectMembers(raw: string): RawMember[] {
  const members: RawMember[] = [];
  let i = skipSpace(raw, 0);
  if (raw.charCodeAt(i) !== 123) return members;
  i = skipSpace(raw, i + 1);
  while (i < raw.length && raw.charCodeAt(i) === 34) {
    const keyStart = i;
    const keyEnd = stringEnd(raw, i);
    const key = decodeKey(raw.slice(i, keyEnd + 1));
    i = skipSpace(raw, keyEnd + 1);
    if (raw.charCodeAt(i) !== 58) break;
    const valueStart = skipSpace(raw, i + 1);
    const valueEndAt = valueEnd(raw, valueStart);
    members.push({ key, keyStart, valueStart, valueEnd: valueEndAt });
    i = skipSpace(raw, valueEndAt);
    if (raw.charCodeAt(i) !== 44) break;
    i = skipSpace(raw, i + 1);
  }
  return members;
}

/** [start, end) of each element of the array whose `[` is at `open`. */
export function arrayElements(raw: string, open: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  if (raw.charCodeAt(open) !== 91) return out;
  let i = skipSpace(raw, open + 1);
  while (i < raw.length && raw.charCodeAt(i) !== 93) {
    const end = valueEnd(raw, i);
    out.push({ start: i, end });
    i = skipSpace(raw, end);
    if (raw.charCodeAt(i) !== 44) break;
    i = skipSpace(raw, i + 1);
  }
  return out;
}
