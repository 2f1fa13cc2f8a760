/**
 * What offline PROF curation writes for one input line: the line's own bytes when all its
 * rollouts are kept, the line trimmed to its kept responses when some are (grouped lines, keyed
 * solutions), and nothing when none is. The line is adapted again with the same field mapping the
 * analysis used, so the arrays trimmed are the ones the analysis read. A JSON array's elements are
 * written one per line, each from its own text. Shared by `prof-lens filter` and the panel's
 * export, which write exactly the same bytes.
 */
import type { FieldRole } from '../profSettings';
import type { SourceRecord } from '../model';
import { adaptRecord } from '../formats/adaptRecord';
import type { AdaptContext } from '../formats/trainers';
import { parseLenient } from '../read/lenientJson';
import { bomLength, terminatorLength } from '../read/jsonLines';
import { lineText, type FileLine } from '../read/byteLines';
import { keepResponses, type ResponseLayout } from '../read/rawEdit';

type Fields = Partial<Record<FieldRole, string>>;
type Decided = readonly { index: number; decision: { kept: boolean } }[] | undefined;

/** What to do with a line: leave it out, copy it, or keep some of its responses. */
type LineEdit = { kind: 'none' } | { kind: 'all' } | { kind: 'some'; kept: ReadonlySet<number>; layout: ResponseLayout };

/** `textOf` gives the line's text, asked for only when some of its rollouts are kept and others not. */
function lineEdit(textOf: () => string, rollouts: Decided, fields: Fields): LineEdit {
  if (!rollouts || rollouts.length === 0) return { kind: 'none' };
  const kept = new Set<number>();
  for (const r of rollouts) if (r.decision.kept) kept.add(r.index);
  if (kept.size === 0) return { kind: 'none' };
  if (kept.size === rollouts.length) return { kind: 'all' };
  const raw = textOf();
  const parsed = parseLenient(raw);
  if (!parsed.ok) return { kind: 'none' };
  const adapted = adaptRecord({ line: 0, raw, value: parsed.value }, fields);
  if (adapted.perResponse) {
    const { responses, outcomes, stepScores, preds, others = [] } = adapted.perResponse;
    return { kind: 'some', kept, layout: { arrays: [responses, outcomes, stepScores, preds, ...others].filter((p) => p !== undefined) } };
  }
  const drafts = adapted.drafts;
  const first = drafts[0]?.responsePath;
  const isKeyed = first?.length === 2 && first[1] === 'solution';
  return isKeyed ? { kind: 'some', kept, layout: { keyedMembers: drafts.map((d) => String(d.responsePath?.[0])) } } : { kind: 'all' };
}

/** The text to write for `raw`, or null to leave the line out. `fields`: the analysis's field mapping. */
export function keptLineText(raw: string, rollouts: Decided, fields: Fields = {}): string | null {
  const edit = lineEdit(() => raw, rollouts, fields);
  if (edit.kind === 'none') return null;
  return edit.kind === 'all' ? raw : keepResponses(raw, edit.kept, edit.layout);
}

/**
 * One line of the input: its decoded text and its bytes (terminator and, on line 1, BOM included).
 * `raw` and `invalidUtf8` are read only for a line some of whose rollouts are kept and others not
 * (they may be getters that decode the bytes).
 */
export interface LineBytes {
  raw: string;
  bytes: Uint8Array;
  invalidUtf8?: boolean;
}

/** A line read with its `bytes` as `LineBytes`; the text of a `textOnDemand` line is decoded when first asked for. */
export function lineBytesOf(line: FileLine, bytes: Uint8Array): LineBytes {
  let text: { raw: string; invalidUtf8: boolean } | undefined;
  return { bytes, get raw() { return (text ??= lineText(line)).raw; }, get invalidUtf8() { return (text ??= lineText(line)).invalidUtf8; } };
}

/**
 * The bytes to write for a line, or null. A line kept whole is its own bytes; a trimmed line keeps
 * its BOM and terminator (CRLF stays CRLF), and one that is not valid UTF-8 is trimmed on its
 * bytes, so the bytes it keeps are the bytes it had.
 */
export function keptLineBytes(line: LineBytes, rollouts: Decided, fields: Fields = {}): Uint8Array | null {
  const edit = lineEdit(() => line.raw, rollouts, fields);
  if (edit.kind === 'none') return null;
  if (edit.kind === 'all') return line.bytes;
  const bom = bomLength(line.bytes);
  const terminator = terminatorLength(line.bytes);
  const body = line.bytes.subarray(bom, line.bytes.length - terminator);
  const trimmed = line.invalidUtf8
    ? binaryToBytes(keepResponses(bytesToBinary(body), edit.kept, binaryLayout(edit.layout)))
    : new TextEncoder().encode(keepResponses(line.raw, edit.kept, edit.layout));
  const out = new Uint8Array(bom + trimmed.length + terminator);
  out.set(line.bytes.subarray(0, bom), 0);
  out.set(trimmed, bom);
  out.set(line.bytes.subarray(line.bytes.length - terminator), bom + trimmed.length);
  return out;
}

/**
 * A kept element of a JSON array, as one JSONL line: its own text (trimmed to its kept responses
 * when some are), every token as written (64-bit ids, `NaN`, `1e400`, `1.0`); only the whitespace
 * runs that hold a line break are dropped, so a pretty-printed element fits on its line.
 */
export function keptElementText(raw: string, rollouts: Decided, fields: Fields = {}): string | null {
  const text = keptLineText(raw, rollouts, fields);
  return text === null ? null : onOneLine(text);
}

/**
 * How many rollouts an analysis made of a record: as many as it adapts to, none for one it could
 * not read. `context`: what the analysis gave the adapters (a tokenizer for token-id traces).
 */
export function rolloutsOfRecord(record: SourceRecord, fields: Fields = {}, context: AdaptContext = {}): number {
  try {
    return adaptRecord(record, fields, context).drafts.length;
  } catch {
    return 0;
  }
}

/** `text` without the whitespace runs (outside strings) that contain a line break. */
export function onOneLine(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
      continue;
    }
    if (!isSpace(c)) continue;
    let end = i;
    let hasBreak = false;
    for (; end < text.length && isSpace(text.charCodeAt(end)); end++) {
      const d = text.charCodeAt(end);
      if (d === 10 || d === 13) hasBreak = true;
    }
    if (hasBreak) {
      out += text.slice(last, i);
      last = end;
    }
    i = end - 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Each byte as one character (JSON's structure is ASCII, so it can be edited in this form). */
function bytesToBinary(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

function binaryToBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** A layout whose keys are written as their UTF-8 bytes, one character each (see `bytesToBinary`). */
function binaryLayout(layout: ResponseLayout): ResponseLayout {
  const key = (k: string): string => bytesToBinary(new TextEncoder().encode(k));
  if ('keyedMembers' in layout) return { keyedMembers: layout.keyedMembers.map(key) };
  return { arrays: layout.arrays.map((path) => path.map((p) => (typeof p === 'string' ? key(p) : p))) };
}
