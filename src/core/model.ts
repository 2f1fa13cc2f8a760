/**
 * The shapes every layer shares: records read from a file, the rollouts they hold, their steps,
 * step scores, outcomes and PROF decisions. Pure data, JSON-plain, no behaviour.
 */
import type { PromptReading } from './transcript/promptReading';
import type { Turn } from './transcript/turns';
import type { AskedFormat } from './answer/askedFormat';
import type { ReasonCode, TrainerFormatId } from './catalogWords';

/** A problem found while reading input: always tied to a 1-based line of the file. */
export interface Diagnostic {
  line: number;
  severity: 'error' | 'warning' | 'info';
  /** Stable machine-readable code, e.g. `bad-json`, `not-object`, `step-count-mismatch`. */
  code: string;
  message: string;
  /** Optional 0-based character range in the raw line. */
  start?: number;
  end?: number;
}

/** One line (JSONL) or one array element (JSON) of the input. */
export interface SourceRecord {
  /** 1-based line number in the file (for a JSON array: the line the element starts on). */
  line: number;
  /** The raw text of the line, without the line terminator (for JSON arrays: the element's text). */
  raw: string;
  /** The parsed value. */
  value: unknown;
  /** 0-based index of the element when the file is one JSON array (messages name it: many arrays sit on one line). */
  item?: number;
}

export type OutcomeKind = 'correct' | 'incorrect' | 'unknown' | 'non-binary';

/** Whether the final answer is right, and how that was decided. */
export interface Outcome {
  kind: OutcomeKind;
  /** `file`: a score/correct field; `graded`: extracted answer compared with the gold; `none`. */
  source: 'file' | 'graded' | 'none';
  /** The raw value from the file, when there was one (e.g. 1, 0, 0.5, true). */
  value?: number | boolean | null;
  /** The answer extracted from the response, when one was looked for. */
  extracted?: string | null;
  /** Where that answer came from: the file's own `pred`, or the convention that found it. */
  answerFrom?: AnswerSource;
  /**
   * The answer format the prompt asks for, when it states one: the answer was read at its last
   * marker, and a response without one (`extracted` null) is graded incorrect, as trainers do.
   */
  asked?: AskedFormat;
}

/**
 * Where a final answer was taken from: `pred`, the evaluation harness's own extraction stored
 * beside the response; otherwise the convention that matched in the response (docs/formats.md §Outcomes,
 * docs/answer-policy.md).
 */
export type AnswerSource = 'pred' | 'boxed' | 'answer-heading' | 'the-answer-is' | 'a-colon' | 'program-output' | 'last-number' | 'answer-tags' | 'verl-gsm8k';

/** Where the response text sits inside the raw line, so decoded offsets can be mapped back. */
export interface RawLocation {
  /** 0-based offset of the first character *inside* the JSON string literal (after the quote). */
  start: number;
  /** Offset of the closing quote. */
  end: number;
}

/** A rollout as adapted from a record, before steps and scores. */
export interface Rollout {
  /** 0-based position in the whole file (file order; used for stable tie-breaks). */
  id: number;
  /** 1-based line of the record. */
  line: number;
  /** 0-based response index within the record (0 for flat formats). */
  index: number;
  /** 0-based index of the record in a JSON array file (absent for JSONL). */
  item?: number | undefined;
  /** The format adapter that produced it. */
  format: FormatId;
  /** Group key (uid / group id / prompt [+ gold]). */
  group: string;
  prompt: string;
  response: string;
  gold: string | null;
  /** The outcome as the file states it (kind `unknown` with source `none` when the file is silent). */
  fileOutcome: Outcome;
  /** Step scores given in the record, when there are any. */
  fileStepScores: (number | null)[] | null;
  /**
   * Why the step scores the record holds cannot be used (an entry that is not a number in [0, 1]
   * or null), naming the entry; the rollout is then not scored, and a diagnostic says so.
   */
  fileScoresProblem?: string;
  /** Steps given explicitly by the record (ProcessBench `steps`, PRM800K completions). */
  explicitSteps: string[] | null;
  /** The answer an evaluation harness extracted and stored beside the response (`pred`), if any. */
  filePred?: string | null;
  /**
   * Path of the JSON string literal in the raw record that holds the response (null when the
   * response was assembled from several values), and the decoded offset at which the response
   * starts inside that string (non-zero when the string also holds the prompt, as in Math-Shepherd).
   */
  responsePath: (string | number)[] | null;
  responseShift: number;
  /** Extra labels some formats carry (PRM800K ratings, ProcessBench first error, Math-Shepherd +/-). */
  stepLabels?: (number | null)[] | null;
  firstErrorStep?: number | null;
  /**
   * How `prompt` (the question) was read from the record: the prompt as it is, or the last user
   * turn of a rendered chat, with the system prompt kept apart. Absent: the prompt as it is.
   */
  promptReading?: PromptReading;
  /**
   * The turns of a multi-turn response, as spans of `response` (tool calls, tool replies, user
   * turns); steps are split from the assistant's turns only. Null: all the assistant's. Absent:
   * not read yet — `responseTurnsOf` reads it when steps or an answer are needed (a run summary
   * of file-scored rollouts needs neither).
   */
  responseTurns?: Turn[] | null;
  /** The file's field the outcome was read from (`score`, `accuracy_reward`, `reward > 0` …). */
  outcomeField?: string;
  /** Per-sample reward fields the record carries beside the outcome, as the file names them. */
  rewards?: RewardField[] | null;
}

/** A per-sample reward value from the file (verl's extra reward keys, TRL's reward columns …). */
export interface RewardField {
  name: string;
  value: number | boolean | null;
}

/** The formats that are not a trainer's dump (formats/adaptRecord.ts and the families it calls). */
export type ReadFormatId = 'verl' | 'generic' | 'chat' | 'grouped' | 'prm800k' | 'processbench' | 'math-shepherd' | 'verl-v1' | 'mapped';

/** The format a rollout was read as: a trainer's (formats/catalog/, one file each) or another. */
export type FormatId = TrainerFormatId | ReadFormatId;

/** A reasoning step: a span of the decoded response. */
export interface Step {
  index: number;
  text: string;
  /** [start, end) in the decoded response string. */
  start: number;
  end: number;
}

/** A scorer's verdict on one rollout's steps. */
export type StepScoring =
  | {
      kind: 'scored';
      /** One entry per step; `null` for a step the scorer could not score (see `notes`). */
      scores: (number | null)[];
      /** Per-step remark: `neutral` (nothing checkable), `unscored (context)`, a false claim, ... */
      notes?: (string | null)[];
      /** Which scorer produced these scores, e.g. `file`, `checker`, `onnx:qwen-prm@cpu`. */
      scorer: string;
      /** Claims the CAS did not decide (screened out, over its budget): said to the user, never scored. */
      notDecided?: NotDecided[];
    }
  | { kind: 'unscored'; reason: string; scorer: string };

/** A claim in a step that the computer algebra system did not decide, and why. */
export interface NotDecided {
  /** 0-based step index. */
  step: number;
  /** The claim as written (shortened). */
  text: string;
  reason: string;
}

/** Why a rollout was kept or dropped: each curation rule declares the codes it brings (rules/catalog/). */
export type { ReasonCode };

/** PROF's decision about one rollout. */
export interface Decision {
  id: number;
  kept: boolean;
  reason: ReasonCode;
  /** Number of steps the scores cover (H). */
  steps: number;
  /** Aggregate of the step scores (mean / min / sum), null when not ranked. */
  score: number | null;
  consistency: number | null;
  penalised: boolean;
  /** 1-based rank inside its outcome class in the group (1 = most trusted), null when not ranked. */
  rank: number | null;
}
