/** What a format adapter returns: the shared types of adaptRecord.ts and its adapters (formats/*.ts, trainerDraft.ts). */
import type { Diagnostic, Rollout } from '../model';

/** A rollout as an adapter makes it: `id` and `line` are 0 until the caller sets them. */
export type RolloutDraft = Rollout;

export interface AdaptResult {
  drafts: RolloutDraft[];
  diagnostics: Diagnostic[];
  /**
   * For a record of several responses: the arrays read one entry per response (the responses, and
   * the outcomes, step scores and predictions taken from parallel arrays), as paths into the
   * record. Trimming the record to some responses trims exactly these arrays and nothing else.
   */
  perResponse?: PerResponseArrays;
}

/** Paths of a grouped record's arrays that hold one entry per response. */
export interface PerResponseArrays {
  responses: (string | number)[];
  outcomes?: (string | number)[];
  stepScores?: (string | number)[];
  preds?: (string | number)[];
  /** Every other array with one entry per response (a column-oriented dump's columns: ROLL's). */
  others?: (string | number)[][];
}
