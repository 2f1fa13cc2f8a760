/**
 * Messages between a host (the CLI) and a checker worker (`dist/checkerWorker.js`), which judges
 * the steps of rollouts with the embedded checker. JSON-plain, discriminated on `type`; each
 * request carries an id. `judge` is answered by `judged` (one entry per item, in item order) or
 * `failed`. Steps holding a claim only the CAS can decide are named in `casSteps`: the host, which
 * holds the one CAS worker, judges those again and decides them there.
 */

/** The checker's two scores (a step with a false claim, every other step). */
export interface CheckerScores {
  falseClaim: number;
  pass: number;
}

/** One item's steps as the checker scored them without the CAS. */
export interface JudgedItem {
  scores: number[];
  notes: (string | null)[];
  /** Steps with a claim that waits for the CAS (their score and note are decided again by the host). */
  casSteps: number[];
}

export type HostToChecker = { type: 'judge'; id: number; items: string[][]; scores: CheckerScores };

export type CheckerToHost =
  | { type: 'judged'; id: number; items: JudgedItem[] }
  | { type: 'failed'; id: number; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScores(value: unknown): value is CheckerScores {
  return isRecord(value) && typeof value['falseClaim'] === 'number' && typeof value['pass'] === 'number';
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((s) => typeof s === 'string');
}

function isJudgedItem(value: unknown): value is JudgedItem {
  if (!isRecord(value)) return false;
  const { scores, notes, casSteps } = value;
  return Array.isArray(scores) && scores.every((s) => typeof s === 'number')
    && Array.isArray(notes) && notes.length === scores.length && notes.every((n) => n === null || typeof n === 'string')
    && Array.isArray(casSteps) && casSteps.every((s) => Number.isInteger(s) && s >= 0 && s < scores.length);
}

/** Checks a message received by a checker worker. */
export function isHostToChecker(value: unknown): value is HostToChecker {
  return isRecord(value) && value['type'] === 'judge' && typeof value['id'] === 'number'
    && Array.isArray(value['items']) && value['items'].every(isStrings) && isScores(value['scores']);
}

/** Checks a message received from a checker worker. */
export function isCheckerToHost(value: unknown): value is CheckerToHost {
  if (!isRecord(value) || typeof value['id'] !== 'number') return false;
  if (value['type'] === 'failed') return typeof value['message'] === 'string';
  return value['type'] === 'judged' && Array.isArray(value['items']) && value['items'].every(isJudgedItem);
}
