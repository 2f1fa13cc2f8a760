/**
 * Output of `prof-lens score`: each input line with `step_scores` and `step_scores_meta` set, and
 * everything else exactly as it was (key order, unknown fields, `1.0` vs `1`, `NaN` literals,
 * escapes). The line is edited as text — the two values are replaced in place or inserted before
 * the closing brace — because parsing and re-serialising would rewrite all of that. The file is
 * written by `outputFiles`' atomic writer.
 */

/** One rollout's scores (flat lines), or one array per response (grouped lines; null = none). */
export type StepScoresValue = readonly (number | null)[] | readonly (readonly (number | null)[] | null)[];

/** What produced the scores, written as `step_scores_meta`. */
export interface StepScoresMeta {
  scorer: string;
  model?: string;
  profile?: string;
  /** The execution provider (onnx) or endpoint (http) that ran the model. */
  provider?: string;
  /**
   * What the model is (its folder's content hash, a served model's identity), when known: a
   * threshold calibrated on these scores is stored for this identity and used for the model's own.
   */
  identity?: string;
}

interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

interface ObjectShape {
  open: number;
  members: Member[];
  /** True when the line writes `"key": value, "key": value` (Python's default) rather than compact. */
  isSpaced: boolean;
}

/**
 * `line` with `step_scores` and `step_scores_meta` replaced where present, else appended as the
 * last members. A key written more than once is written once: the last of them (the one
 * `JSON.parse` reads) gets the new value and the earlier ones are left out, so no reader finds the
 * old scores. The line is rebuilt in one pass (editing it once per duplicate key made 200,000 of
 * them take minutes). Throws when the line is not one JSON object.
 */
export function withStepScores(line: string, scores: StepScoresValue, meta: StepScoresMeta): string {
  const shape = scanObject(line);
  const values = new Map<string, string>([
    ['step_scores', serialise(scores, shape.isSpaced)],
    ['step_scores_meta', serialise(metaObject(meta), shape.isSpaced)],
  ]);
  const lastOf = new Map<string, number>();
  shape.members.forEach((m, i) => {
    if (values.has(m.key)) lastOf.set(m.key, i);
  });
  const edits: { start: number; end: number; text: string }[] = [];
  shape.members.forEach((m, i) => {
    const text = values.get(m.key);
    if (text === undefined) return;
    if (lastOf.get(m.key) === i) edits.push({ start: m.valueStart, end: m.valueEnd, text });
    // An earlier duplicate goes with the separator after it (a later member always follows it).
    else edits.push({ start: m.keyStart, end: shape.members[i + 1]!.keyStart, text: '' });
  });
  const missing = [...values].filter(([key]) => !lastOf.has(key)).map(([key, text]) => `${JSON.stringify(key)}${shape.isSpaced ? ': ' : ':'}${text}`);
  if (missing.length > 0) {
    const last = shape.members.at(-1);
    const comma = shape.isSpaced ? ', ' : ',';
    const at = last ? last.valueEnd : shape.open + 1;
    edits.push({ start: at, end: at, text: (last ? comma : '') + missing.join(comma) });
  }
  const parts: string[] = [];
  let from = 0;
  for (const edit of edits) {
    parts.push(line.slice(from, edit.start), edit.text);
    from = edit.end;
  }
  parts.push(line.slice(from));
  return parts.join('');
}

function metaObject(meta: StepScoresMeta): Record<string, string> {
  const out: Record<string, string> = { scorer: meta.scorer };
  if (meta.model !== undefined) out.model = meta.model;
  if (meta.profile !== undefined) out.profile = meta.profile;
  if (meta.provider !== undefined) out.provider = meta.provider;
  if (meta.identity !== undefined) out.identity = meta.identity;
  return out;
}

/**
 * JSON in the line's own spacing style; a non-finite score becomes `null`. ASCII only (other
 * characters as `\u` escapes), so the text is the same whether the line is edited as decoded text
 * or, when it is not valid UTF-8, as its bytes.
 */
function serialise(value: unknown, isSpaced: boolean): string {
  if (Array.isArray(value)) return `[${value.map((v) => serialise(v, isSpaced)).join(isSpaced ? ', ' : ',')}]`;
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'object' && value !== null) {
    const parts = Object.entries(value).map(([k, v]) => `${asciiJson(k)}${isSpaced ? ': ' : ':'}${serialise(v, isSpaced)}`);
    return `{${parts.join(isSpaced ? ', ' : ',')}}`;
  }
  return asciiJson(value ?? null);
}

function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

class LineShapeError extends Error {
  constructor(message: string, at: number) {
    super(`${message} at column ${at + 1}`);
    this.name = 'LineShapeError';
  }
}

const WHITESPACE = new Set([' ', '\t', '\r', '\n', '\uFEFF']);

function skipSpace(text: string, at: number): number {
  while (at < text.length && WHITESPACE.has(text.charAt(at))) at++;
  return at;
}

/** The top-level members of the one JSON object on the line, with their value spans. */
function scanObject(text: string): ObjectShape {
  const open = skipSpace(text, 0);
  if (text.charAt(open) !== '{') throw new LineShapeError('expected a JSON object', open);
  const members: Member[] = [];
  let isSpaced: boolean | undefined;
  let at = skipSpace(text, open + 1);
  while (text.charAt(at) !== '}') {
    if (members.length > 0) {
      if (text.charAt(at) !== ',') throw new LineShapeError('expected "," or "}"', at);
      at = skipSpace(text, at + 1);
    }
    if (text.charAt(at) !== '"') throw new LineShapeError('expected a key', at);
    const keyEnd = skipString(text, at);
    const key = decodeKey(text.slice(at, keyEnd));
    const colon = skipSpace(text, keyEnd);
    if (text.charAt(colon) !== ':') throw new LineShapeError('expected ":"', colon);
    isSpaced ??= text.charAt(colon + 1) === ' ';
    const valueStart = skipSpace(text, colon + 1);
    const valueEnd = skipValue(text, valueStart);
    members.push({ key, keyStart: at, valueStart, valueEnd });
    at = skipSpace(text, valueEnd);
  }
  const rest = skipSpace(text, at + 1);
  if (rest < text.length) throw new LineShapeError('unexpected text after the object', rest);
  return { open, members, isSpaced: isSpaced ?? false };
}

function decodeKey(literal: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    // Lone surrogates and raw control characters are rejected by JSON.parse; such a key cannot be ours.
    return literal;
  }
}

/** Index just past the string literal starting at `at` (a quote). */
function skipString(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '\\') i++;
    else if (c === '"') return i + 1;
  }
  throw new LineShapeError('unterminated string', at);
}

/** Index just past the value starting at `at`; literals (`NaN`, `-Infinity`, numbers) run to a delimiter. */
function skipValue(text: string, at: number): number {
  const first = text.charAt(at);
  if (first === '"') return skipString(text, at);
  if (first === '{' || first === '[') return skipNested(text, at);
  let end = at;
  while (end < text.length && !',}]'.includes(text.charAt(end)) && !WHITESPACE.has(text.charAt(end))) end++;
  if (end === at) throw new LineShapeError('expected a value', at);
  return end;
}

function skipNested(text: string, at: number): number {
  const closers: string[] = [];
  for (let i = at; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '"') i = skipString(text, i) - 1;
    else if (c === '{') closers.push('}');
    else if (c === '[') closers.push(']');
    else if (c === '}' || c === ']') {
      if (closers.pop() !== c) throw new LineShapeError(`unexpected "${c}"`, i);
      if (closers.length === 0) return i + 1;
    }
  }
  throw new LineShapeError('unterminated object or array', at);
}
