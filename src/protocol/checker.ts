/**
 * Messages between a host (the CLI) and a checker worker (`dist/checkerWorker.js`), which judges
 * the steps of rollouts with the embedded checker. JSON-plain, discriminated on `type`; each
 * request carries an id. `judge` is answered by `judged` (one entry per item, in item order) or
 * `failed`. The steps of a request travel as one text with their lengths (one copy, not a string
 * per step), and `counts` says how many steps each item has. Steps holding a claim only the CAS can decide are named in `casSteps`: the host, which
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

export type HostToChecker = { type: 'judge'; id: number; text: string; lengths: number[]; counts: number[]; scores: CheckerScores };

export type CheckerToHost =
  | { type: 'judged'; id: number; items: JudgedItem[] }
  | { type: 'failed'; id: number; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScores(value: unknown): value is CheckerScores {
  return isRecord(value) && typeof value['falseClaim'] === 'number' && typeof value['pass'] === 'number';
}

function isCounts(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((n) => Number.isInteger(n) && n >= 0);
}

/** The steps of a request, item by item, cut from its text; null when the lengths do not fit it. */
export function stepsOf(message: HostToChecker): string[][] | null {
  const items: string[][] = [];
  let at = 0;
  let step = 0;
  for (const count of message.counts) {
    const steps: string[] = [];
    for (let k = 0; k < count; k++, step++) {
      const length = message.lengths[step];
      if (length === undefined) return null;
      steps.push(message.text.slice(at, at + length));
      at += length;
    }
    items.push(steps);
  }
  return at === message.text.length && step === message.lengths.length ? items : null;
}

/** The request that carries `items` (one list of step texts per item). */
export function judgeRequest(id: number, items: readonly (readonly string[])[], scores: CheckerScores): HostToChecker {
  const lengths: number[] = [];
  const counts: number[] = [];
  const texts: string[] = [];
  for (const steps of items) {
    counts.push(steps.length);
    for (const step of steps) {
      lengths.push(step.length);
      texts.push(step);
    }
  }
  return { type: 'judge', id, text: texts.join(''), lengths, counts, scores };
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
  return isRecord(value) && value['type'] === 'judge' && typeof value['id'] === 'number' && typeof value['text'] === 'string'
    && isCounts(value['lengths']) && isCounts(value['counts']) && isScores(value['scores']);
}

/** Checks a message received from a checker worker. */
export function isCheckerToHost(value: unknown): value is CheckerToHost {
  if (!isRecord(value) || typeof value['id'] !== 'number') return false;
  if (value['type'] === 'failed') return typeof value['message'] === 'string';
  return value['type'] === 'judged' && Array.isArray(value['items']) && value['items'].every(isJudgedItem);
}
