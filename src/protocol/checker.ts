/**
 * Messages between a host (the CLI) and a checker worker (`dist/checkerWorker.js`), which judges
 * the steps of rollouts with the embedded checker. JSON-plain, discriminated on `type`; each
 * request carries an id. `judge` is answered by `judged` (one entry per item, in item order) or
 * `failed`. The steps of a request travel as one text with their lengths (one copy, not a string
 * per step), and `counts` says how many steps each item has. Steps holding a claim only the CAS
 * can decide are named in `casSteps`: the host, which holds the one CAS worker, judges those again
 * and decides them there. The answer travels packed as well (`JudgedSteps`): the scores in one
 * transferred array, the notes in one text with their lengths; a list of objects per item, cloned
 * one by one, cost the worker about a tenth of its time and the host as much again to take in.
 */
import { arrayOf, isCount, isNumber, isString, shape } from './guards';
import { message, protocol, request, type Sent } from './messages';

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

/**
 * Every step of a request judged, the steps of all its items one after another: `scores` one per
 * step, `noteLengths` one per step (-1 for a step without a note) cutting `notes` into the steps'
 * notes, `casSteps` the steps (counted over the whole request) that wait for the CAS.
 */
export interface JudgedSteps {
  scores: Float64Array;
  notes: string;
  noteLengths: Int32Array;
  casSteps: number[];
}

const isScores = shape({ falseClaim: isNumber, pass: isNumber });
const isFloat64Array = (value: unknown): value is Float64Array => value instanceof Float64Array;
const isInt32Array = (value: unknown): value is Int32Array => value instanceof Int32Array;

/** The items' steps judged, in item order (see `JudgedSteps`). */
export const judged = message('toHost', 'judged', { id: isNumber, scores: isFloat64Array, notes: isString, noteLengths: isInt32Array, casSteps: arrayOf(isCount) });
export const failed = message('toHost', 'failed', { id: isNumber, message: isString });
export const judge = request('fromHost', 'judge', { id: isNumber, text: isString, lengths: arrayOf(isCount), counts: arrayOf(isCount), scores: isScores }, { replies: [judged, failed] });

/** A checker worker's channel. */
export const checkerProtocol = protocol(judge);
export type HostToChecker = Sent<typeof checkerProtocol, 'fromHost'>;
export type CheckerToHost = Sent<typeof checkerProtocol, 'toHost'>;
/** Checks a message received by a checker worker. */
export const isHostToChecker = checkerProtocol.guard('fromHost');
/** Checks a message received from a checker worker. */
export const isCheckerToHost = checkerProtocol.guard('toHost');

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

/**
 * A reply's steps cut back into items of `counts` steps each; null when the reply does not fit
 * them (another number of steps, notes longer or shorter than their text, a CAS step out of range).
 */
export function judgedItems(reply: JudgedSteps, counts: readonly number[]): JudgedItem[] | null {
  let total = 0;
  for (const count of counts) total += count;
  if (reply.scores.length !== total || reply.noteLengths.length !== total) return null;
  const items: JudgedItem[] = new Array<JudgedItem>(counts.length);
  let step = 0;
  let at = 0;
  for (let i = 0; i < counts.length; i++) {
    const count = counts[i] as number;
    const scores = new Array<number>(count);
    const notes = new Array<string | null>(count);
    for (let k = 0; k < count; k++, step++) {
      scores[k] = reply.scores[step] as number;
      const length = reply.noteLengths[step] as number;
      if (length < 0) notes[k] = null;
      else {
        notes[k] = reply.notes.slice(at, at + length);
        at += length;
      }
    }
    items[i] = { scores, notes, casSteps: [] };
  }
  if (at !== reply.notes.length) return null;
  // The CAS steps come in order, so one walk over the items finds each one's item.
  let i = 0;
  let first = 0;
  let previous = -1;
  for (const s of reply.casSteps) {
    if (s >= total || s <= previous) return null;
    previous = s;
    while (first + (counts[i] as number) <= s) first += counts[i++] as number;
    (items[i] as JudgedItem).casSteps.push(s - first);
  }
  return items;
}
