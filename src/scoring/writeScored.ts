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
 * last members. Throws when the line is not one JSON object.
 */
export function withStepScores(line: string, scores: StepScoresValue, meta: StepScoresMeta): string {
  const shape = scanObject(line);
  const values: [string, string][] = [
    ['step_scores', serialise(scores, shape.isSpaced)],
    ['step_scores_meta', serialise(metaObject(meta), shape.isSpaced)],
  ];
  const edits: { start: number; end: number; text: string }[] = [];
  const missing: string[] = [];
  for (const [key, text] of values) {
    const found = shape.members.filter((m) => m.key === key);
    for (const m of found) edits.push({ start: m.valueStart, end: m.valueEnd, text });
    if (found.length === 0) missing.push(`${JSON.stringify(key)}${shape.isSpaced ? ': ' : ':'}${text}`);
  }
  if (missing.length > 0) {
    const last = shape.members.at(-1);
    const comma = shape.isSpaced ? ', ' : ',';
    const at = last ? last.valueEnd : shape.open + 1;
    edits.push({ start: at, end: at, text: (last ? comma : '') + missing.join(comma) });
  }
  edits.sort((a, b) => b.start - a.start);
  let result = line;
  for (const edit of edits) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

function metaObject(meta: StepScoresMeta): Record<string, string> {
  const out: Record<string, string> = { scorer: meta.scorer };
  if (meta.model !== undefined) out.model = meta.model;
  if (meta.profile !== undefined) out.profile = meta.profile;
  if (meta.provider !== undefined) out.provider = meta.provider;
  if (meta.identity !== undefined) out.identity = meta.identity;
  return out;
}

/** JSON in the line's own spacing style; a non-finite score becomes `null`. */
function serialise(value: unknown, isSpaced: boolean): string {
  if (Array.isArray(value)) return `[${value.map((v) => serialise(v, isSpaced)).join(isSpaced ? ', ' : ',')}]`;
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'object' && value !== null) {
    const parts = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}${isSpaced ? ': ' : ':'}${serialise(v, isSpaced)}`);
    return `{${parts.join(isSpaced ? ', ' : ',')}}`;
  }
  return JSON.stringify(value ?? null);
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
    members.push({ key, valueStart, valueEnd });
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
