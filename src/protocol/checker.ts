/**
 * Messages between a host (the CLI) and a checker worker (`dist/checkerWorker.js`), which judges
 * the steps of rollouts with the embedded checker. JSON-plain, discriminated on `type`; each
 * request carries an id. `judge` is answered by `judged` (one entry per item, in item order) or
 * `failed`. The steps of a request travel as one text with their lengths (one copy, not a string
 * per step), and `counts` says how many steps each item has. Steps holding a claim only the CAS
 * can decide are named in `casSteps`: the host, which holds the one CAS worker, judges those again
 * and decides them there.
 */
import { arrayOf, isCount, isNumber, isString, nullable, shape, where, type Guard } from './guards';
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

const isScores = shape({ falseClaim: isNumber, pass: isNumber });
const isJudgedItem: Guard<JudgedItem> = where(
  shape({ scores: arrayOf(isNumber), notes: arrayOf(nullable(isString)), casSteps: arrayOf(isCount) }),
  (item) => item.notes.length === item.scores.length && item.casSteps.every((s) => s < item.scores.length),
);

/** The items' steps judged, in item order. */
export const judged = message('toHost', 'judged', { id: isNumber, items: arrayOf(isJudgedItem) });
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
