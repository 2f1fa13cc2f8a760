/**
 * Is this JSON or JSONL document a rollout file? Decided from a bounded prefix (the first 64 KB,
 * at most the first 32 records) before anything else is done with it: a `tsconfig.json`, a
 * `package.json`, a settings file or a schema is left alone (no analysis, no model, no marks).
 * A record counts when a format adapter makes a rollout of it that has a response and at least one
 * other role (a prompt, a gold answer, an outcome, step scores or steps), with words in it. A
 * record cut off by the prefix (a long first response) is closed where it was cut and judged by
 * what it holds so far.
 */
import type { FieldRole } from '../profSettings';
import type { RolloutDraft } from './adaptRecord';
import { adaptRecord } from './adaptRecord';
import { PROMPT_KEYS, RESPONSE_KEYS, RESPONSES_KEYS } from './generic';
import { parseLenient } from '../read/lenientJson';
import { readLine } from '../read/reader';
import { splitLines, withoutBom, type TextLine } from '../read/jsonLines';
import { isRecord } from '../isRecord';

/** How much of a document is looked at. */
export const DETECTION_PREFIX_CHARS = 64 * 1024;
/** How many records of the prefix are looked at, at most. */
export const DETECTION_MAX_RECORDS = 32;

/** A 0-based line and character, as an editor counts them. */
export interface LinePosition {
  line: number;
  character: number;
}

/**
 * Where the first `chars` characters of a document end, found by walking its first lines. An
 * editor's `positionAt` would first index every line of the document, which takes tens of
 * milliseconds on the extension host's thread for a 40 MB file; this reads only the prefix's lines.
 * Same answer as `positionAt`: an offset inside a line break stays at the end of that line, and
 * one past the end is the end of the last line.
 */
export function prefixEnd(lineLength: (line: number) => number, lineCount: number, eolLength: number, chars = DETECTION_PREFIX_CHARS): LinePosition {
  let left = chars;
  for (let line = 0; line < lineCount; line++) {
    const length = lineLength(line);
    if (left <= length || line === lineCount - 1) return { line, character: Math.min(left, length) };
    left -= length + eolLength;
    if (left < 0) return { line, character: length };
  }
  return { line: 0, character: 0 };
}

export interface DetectionOptions {
  fileName: string;
  /** The user's field mapping (role → dotted path); it decides what a response is. */
  fields?: Partial<Record<FieldRole, string>>;
  /** The prefix is the whole document (nothing was cut off). */
  isWholeText: boolean;
}

/** True when the prefix holds a record that a format adapter recognises as a rollout. */
export function holdsRollouts(prefix: string, options: DetectionOptions): boolean {
  const body = withoutBom(prefix);
  const text = body.slice(0, DETECTION_PREFIX_CHARS);
  const isWhole = options.isWholeText && body.length <= DETECTION_PREFIX_CHARS;
  const isRollout = (c: Candidate): boolean => isRolloutRecord(c.value, options.fields) || isCutRollout(c);
  if (/\.json$/i.test(options.fileName) || /^\s*\[/.test(text)) {
    const document = isWhole ? whole(text) : parseClosed(text);
    if (document !== undefined) return documentRecords(document).some(isRollout);
    // A `.json` file that is not one JSON document may be JSON Lines under another name.
  }
  let seen = 0;
  for (const line of splitLines(text)) {
    if (seen >= DETECTION_MAX_RECORDS) break;
    const candidate = !line.terminated && !isWhole ? parseClosed(line.raw) : recordOf(line);
    if (candidate === undefined) continue;
    seen++;
    if (isRollout(candidate)) return true;
  }
  return false;
}

/** A record of the prefix; `cutKey` names the member the prefix ended in, for a record cut off. */
interface Candidate {
  value: unknown;
  cutKey: string | null;
}

function recordOf(line: TextLine): Candidate | undefined {
  const read = readLine(line);
  return read.kind === 'record' ? { value: read.record.value, cutKey: null } : undefined;
}

function whole(text: string): Candidate | undefined {
  const parsed = parseLenient(text);
  return parsed.ok ? { value: parsed.value, cutKey: null } : undefined;
}

/** The value of a cut-off JSON text, closed where it was cut (or as it is, when it is whole). */
function parseClosed(text: string): Candidate | undefined {
  const closed = closeCut(text);
  const parsed = parseLenient(closed?.text ?? text);
  return parsed.ok ? { value: parsed.value, cutKey: closed?.cutKey ?? null } : undefined;
}

/** A JSON document's records: its first elements (the last one cut, maybe), or itself. */
function documentRecords(document: Candidate): Candidate[] {
  const all: unknown = document.value;
  if (!Array.isArray(all)) return [document];
  return all.slice(0, DETECTION_MAX_RECORDS).map((value, i) => ({ value, cutKey: i === all.length - 1 ? document.cutKey : null }));
}

function isRolloutRecord(value: unknown, fields: DetectionOptions['fields']): boolean {
  if (!isRecord(value)) return false;
  return adaptRecord({ line: 1, raw: '', value }, fields ?? {}).drafts.some(isRollout);
}

/** Keys whose value can be long enough to outrun the prefix: the response and the steps. */
const LONG_KEYS = new Set<string>([...RESPONSE_KEYS, ...RESPONSES_KEYS, 'messages', 'steps']);

/**
 * A record cut off in its response or steps, before the keys that would name its format (a
 * ProcessBench element's `label` comes after its `steps`, ROLL's `scores` after its `responses`):
 * a question in words and the response under way are enough.
 */
function isCutRollout(c: Candidate): boolean {
  if (c.cutKey === null || !LONG_KEYS.has(c.cutKey) || !isRecord(c.value)) return false;
  const record = c.value;
  // A column-oriented dump (ROLL's) holds its prompts as a list, one per response.
  const words = (v: unknown): boolean => typeof v === 'string' && /\s/.test(v);
  return PROMPT_KEYS.some((k) => words(record[k]) || (Array.isArray(record[k]) && words(record[k][0])))
    || (Array.isArray(record.messages) && words(record.messages[0]));
}

/**
 * A response and one more role, in words: `{"input": "src", "output": "dist"}` in a build
 * config is not a rollout, while a model's answer or the question it answers has a space in it.
 */
function isRollout(draft: RolloutDraft): boolean {
  if (draft.response.trim() === '') return false;
  const hasOtherRole = draft.prompt.trim() !== '' || draft.gold !== null || draft.fileOutcome.kind !== 'unknown'
    || draft.fileStepScores !== null || draft.fileScoresProblem !== undefined || draft.explicitSteps !== null || draft.stepLabels != null;
  return hasOtherRole && (/\s/.test(draft.prompt.trim()) || /\s/.test(draft.response.trim()));
}

interface Frame {
  closer: '}' | ']';
  /** Where the frame's content can be cut and closed: after `{`/`[` or after a complete member. */
  safe: number;
  isObject: boolean;
  /** Object frames: a key is expected next (after `{` or `,`). */
  expectsKey: boolean;
  /** Object frames: the last key read. */
  key: string | null;
}

/**
 * `text` (the start of one JSON value, cut anywhere) made whole: an open string value is closed
 * where it was cut, a half-read key, literal or member is dropped, open arrays and objects are
 * closed. Null when the value is not an array or object, or is already complete. Linear time.
 */
export function closeTruncatedJson(text: string): string | null {
  return closeCut(text)?.text ?? null;
}

interface Closed {
  text: string;
  /**
   * The member of the record being read (the top-level object, or the array element of a JSON
   * document) whose value the cut fell in, if any.
   */
  cutKey: string | null;
}

function closeCut(text: string): Closed | null {
  const frames: Frame[] = [];
  /** Closed at the innermost frame's last safe point, or inside the open string value at `quote`. */
  const closed = (quote?: number): Closed => {
    const record = frames[0]?.isObject ? frames[0] : frames[1];
    const cutKey = record?.isObject && !record.expectsKey ? record.key : null;
    const safe = frames[frames.length - 1]!.safe;
    return { text: quote === undefined ? cutAt(text, frames, safe) : closeString(text, quote, frames), cutKey };
  };
  let i = skipSpace(text, 0);
  const first = text.charAt(i);
  if (first !== '{' && first !== '[') return null;
  for (; i < text.length; i++) {
    const c = text.charAt(i);
    const frame = frames[frames.length - 1];
    if (c === '{' || c === '[') {
      frames.push({ closer: c === '{' ? '}' : ']', safe: i + 1, isObject: c === '{', expectsKey: c === '{', key: null });
    } else if (c === '}' || c === ']') {
      frames.pop();
      if (frames.length === 0) return null;
      completeValue(frames, i + 1);
    } else if (c === '"') {
      const end = stringEnd(text, i);
      const isKey = frame?.isObject === true && frame.expectsKey;
      if (end === -1) return isKey ? closed() : closed(i);
      if (isKey) {
        frame.expectsKey = false;
        frame.key = decodeKey(text.slice(i, end + 1));
      } else completeValue(frames, end + 1);
      i = end;
    } else if (c === ',') {
      if (frame?.isObject) frame.expectsKey = true;
    } else if (c !== ':' && !isSpace(c)) {
      const end = literalEnd(text, i);
      if (end === text.length) break;
      completeValue(frames, end);
      i = end - 1;
    }
  }
  return frames.length > 0 ? closed() : null;
}

function decodeKey(literal: string): string | null {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return null;
  }
}

function completeValue(frames: Frame[], at: number): void {
  const frame = frames[frames.length - 1];
  if (frame) frame.safe = at;
}

function cutAt(text: string, frames: readonly Frame[], at: number): string {
  return text.slice(0, at) + closers(frames);
}

function closers(frames: readonly Frame[]): string {
  return frames.map((f) => f.closer).reverse().join('');
}

/** An open string value cut at the end: closed there, without a half-written escape. */
function closeString(text: string, quote: number, frames: readonly Frame[]): string {
  for (let drop = 0; drop <= 6 && text.length - drop > quote; drop++) {
    const literal = `${text.slice(quote, text.length - drop)}"`;
    if (isStringLiteral(literal)) return text.slice(0, text.length - drop) + '"' + closers(frames);
  }
  return cutAt(text, frames, frames[frames.length - 1]?.safe ?? 0);
}

function isStringLiteral(literal: string): boolean {
  try {
    return typeof JSON.parse(literal) === 'string';
  } catch {
    return false;
  }
}

/** Index of the closing quote of the string starting at `quote`, or -1 when it is not closed. */
function stringEnd(text: string, quote: number): number {
  for (let i = quote + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i;
  }
  return -1;
}

function literalEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && !',:]}"[{'.includes(text.charAt(i)) && !isSpace(text.charAt(i))) i++;
  return i;
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charAt(i))) i++;
  return i;
}
