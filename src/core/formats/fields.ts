/**
 * Reading typed values out of records: dotted paths for the user's field mapping, and the
 * tolerant reading of outcomes and step scores that real dumps need (numbers as strings,
 * `1.0`/`0.0`, `true`/`false`, `-1` for wrong in the reference code).
 */
import type { Outcome } from '../model';

export type Json = Record<string, unknown>;

/** Parse `a.b[2].c` or `a.b.2.c` into a path. */
export function parsePath(path: string): (string | number)[] {
  const parts: (string | number)[] = [];
  for (const piece of path.split('.')) {
    const re = /([^[\]]+)|\[(\d+)\]/g;
    for (const m of piece.matchAll(re)) {
      if (m[2] !== undefined) parts.push(Number(m[2]));
      else if (m[1] !== undefined) parts.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    }
  }
  return parts;
}

/** The value at `path`, or undefined; own members only (`constructor` is no field of a record). */
export function getPath(value: unknown, path: readonly (string | number)[]): unknown {
  let v: unknown = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

/** The first of `keys` that the record has (with a non-null value). */
export function firstKey(record: Json, keys: readonly string[]): string | undefined {
  for (const k of keys) if (record[k] !== undefined && record[k] !== null) return k;
  return undefined;
}

/** A value as text: strings as they are, numbers printed, anything else null. */
export function asText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.length === 1 ? String(value[0]) : null;
  }
  return null;
}

/** A number, also from a numeric string; null otherwise. */
export function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** An array of step scores (numbers, numeric strings, null); null when it is not one. */
export function asScores(value: unknown): (number | null)[] | null {
  const read = readScores(value, 'step scores');
  return read.problem === undefined ? read.scores : null;
}

/** Step scores as a record holds them, or what is wrong with them. */
export interface ScoresRead {
  /** The scores; null when the record has none (or they cannot be used: see `problem`). */
  scores: (number | null)[] | null;
  /** Why the scores the record holds cannot be used, naming the entry: `step_scores[1] is true …`. */
  problem?: string;
}

const NO_SCORES: ScoresRead = Object.freeze({ scores: null });

/**
 * Step scores the record holds under `name`: each a number in [0, 1] (also written as a string),
 * or null for a step not scored. Anything else (`true`, `1e309` read as Infinity, `"1e999"`, 2.5)
 * is a problem named with its entry, so the rollout is reported rather than silently scored by
 * another scorer, and no aggregate becomes infinite.
 */
export function readScores(value: unknown, name: string): ScoresRead {
  // Not a list: not step scores at all (`values` is a common name), as before.
  if (!Array.isArray(value)) return NO_SCORES;
  // The usual case, plain numbers and nulls, is used as parsed: no copy per rollout.
  let isPlain = true;
  for (let i = 0; i < value.length; i++) {
    const v: unknown = value[i];
    if (v === null || (typeof v === 'number' && v >= 0 && v <= 1)) continue;
    isPlain = false;
    if (typeof v === 'number' || typeof v !== 'string' || !isUnitScore(asNumber(v))) {
      return { scores: null, problem: `${name}[${i}] is ${describeValue(v)}, not a number in [0, 1] or null` };
    }
  }
  if (isPlain) return { scores: value as (number | null)[] };
  return { scores: value.map((v: unknown) => (v === null ? null : (asNumber(v) as number))) };
}

function isUnitScore(n: number | null): boolean {
  return n !== null && n >= 0 && n <= 1;
}

/** A value as a message quotes it: short, and never the whole of a long one. */
function describeValue(v: unknown): string {
  if (typeof v === 'string') return v.length > 40 ? `a string of ${v.length.toLocaleString('en-US')} characters` : JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null) return 'null';
  return Array.isArray(v) ? `a list of ${v.length.toLocaleString('en-US')}` : `an ${typeof v}`;
}

const TRUE_WORDS = new Set(['true', 'correct', 'yes', 'right']);
const FALSE_WORDS = new Set(['false', 'incorrect', 'no', 'wrong']);

/**
 * The outcomes files state most, one frozen object each rather than one per rollout of a dump
 * (outcomes are never changed in place: a graded or extracted answer makes a new one).
 */
const FILE_OUTCOMES = {
  unknown: Object.freeze<Outcome>({ kind: 'unknown', source: 'none' }),
  correctTrue: Object.freeze<Outcome>({ kind: 'correct', source: 'file', value: true }),
  incorrectFalse: Object.freeze<Outcome>({ kind: 'incorrect', source: 'file', value: false }),
  correctOne: Object.freeze<Outcome>({ kind: 'correct', source: 'file', value: 1 }),
  incorrectZero: Object.freeze<Outcome>({ kind: 'incorrect', source: 'file', value: 0 }),
  incorrectMinusOne: Object.freeze<Outcome>({ kind: 'incorrect', source: 'file', value: -1 }),
};

/** The outcome a file value states: 1/true correct, 0/-1/false incorrect, other numbers non-binary. */
export function outcomeFromValue(value: unknown): Outcome {
  if (value === undefined || value === null) return FILE_OUTCOMES.unknown;
  if (typeof value === 'boolean') return value ? FILE_OUTCOMES.correctTrue : FILE_OUTCOMES.incorrectFalse;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return FILE_OUTCOMES.correctTrue;
    if (FALSE_WORDS.has(word)) return FILE_OUTCOMES.incorrectFalse;
  }
  const n = asNumber(value);
  if (n === null) return FILE_OUTCOMES.unknown;
  if (n === 1) return FILE_OUTCOMES.correctOne;
  // -0 keeps its own object: the value is the file's, sign included.
  if (Object.is(n, 0)) return FILE_OUTCOMES.incorrectZero;
  if (n === -1) return FILE_OUTCOMES.incorrectMinusOne;
  if (n === 0) return { kind: 'incorrect', source: 'file', value: n };
  return { kind: 'non-binary', source: 'file', value: n };
}
