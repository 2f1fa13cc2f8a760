/**
 * The computer algebra system as the rest of the code sees it: an asynchronous service that takes
 * a batch of tasks and answers each, or says why it did not decide it. Core code depends only on
 * this interface; the implementation that runs the engine in a worker thread on a time budget
 * (and restarts it when an expression overruns) lives in `scoring/cas/`.
 */

/** A normalised answer as the grader hands it over: its text and whether it was a percentage. */
export interface CasAnswer {
  text: string;
  isPercent: boolean;
}

/** One thing for the CAS to decide. */
export type CasTask =
  /** Are two normalised answers the same? */
  | { kind: 'equal'; pred: CasAnswer; gold: CasAnswer }
  /** The numeric value of a LaTeX expression without variables. */
  | { kind: 'value'; latex: string };

/** The CAS's answer to one task. */
export type CasResult =
  | { kind: 'equal'; equal: boolean | null }
  | { kind: 'value'; value: number | null }
  /** Not decided: screened out, over the time budget, or the engine failed; `reason` says which. */
  | { kind: 'not-decided'; reason: string };

/** Runs CAS tasks; one result per task, in order. */
export interface CasService {
  run(tasks: readonly CasTask[], signal?: AbortSignal): Promise<CasResult[]>;
}
