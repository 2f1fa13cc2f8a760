/**
 * The analysed file as every surface sees it: each rollout with its steps, scores, outcome and
 * PROF decision, plus the file's diagnostics and report.
 */
import type { Decision, Diagnostic, Outcome, RewardField, Rollout, Step } from './model';
import type { FalsePositive } from './groups';
import type { FileReport } from './fileReport';
import type { RolloutFacts } from './presentation/rolloutFacts';
import type { ProfSettings } from './profSettings';
import type { RolloutTable } from './rolloutTable';
import { decodedToRaw, locateString } from './rawJson';
import type { PromptReading, QuestionReading } from './transcript/promptReading';
import type { Turn } from './transcript/turns';

/** One rollout as every surface sees it; the facts (low steps, evidence …) are derived once, here. */
export interface AnalysedRollout extends RolloutFacts {
  id: number;
  /** 1-based line of the record. */
  line: number;
  /** Response index within the record. */
  index: number;
  /** 0-based index of the record in a JSON array file (absent for JSONL). */
  item?: number | undefined;
  format: Rollout['format'];
  group: string;
  /** Empty when the analysis was asked not to keep texts (large files in the CLI). */
  prompt: string;
  response: string;
  /** Length of the response in UTF-16 code units, kept even when the texts are not. */
  responseChars: number;
  gold: string | null;
  steps: Step[];
  /** The steps as [start, end) offsets in the raw line; null when the response is not one literal there. */
  rawSteps: { start: number; end: number }[] | null;
  stepScores: (number | null)[];
  /** Per-step notes (`neutral`, a false claim, `unscored (context)`); empty when there are none. */
  stepNotes: (string | null)[];
  /** Which scorer scored it (`file`, `checker`, `onnx …`), or why none could. */
  scorer: string;
  unscoredReason: string | null;
  outcome: Outcome;
  decision: Decision;
  falsePositive: FalsePositive;
  /** Labels the file carries per step (PRM800K ratings, ProcessBench, Math-Shepherd), if any. */
  stepLabels: (number | null)[] | null;
  /** How the question (`prompt`) was read from the record: plain, a chat transcript, used whole. */
  questionReading: QuestionReading;
  /** The prompt's turns and system prompt; kept with the texts (absent when they are not). */
  promptReading?: PromptReading;
  /** The response's turns (tool calls, tool replies, user turns) as spans of `response`; null when it is all the assistant's. */
  responseTurns: Turn[] | null;
  /** The field the file's outcome came from (`score`, `accuracy_reward`, `reward > 0` …), if the format names one. */
  outcomeField: string | null;
  /** Per-sample reward fields the record carries, as the file names them. */
  rewards: RewardField[] | null;
}

export interface FileAnalysis {
  fileName: string;
  /**
   * Every rollout, in file order. Where the analysis keeps its rollouts as columns (`rows`), this
   * list is made on first use; code that only walks the rollouts uses `eachRollout`, which makes
   * one at a time.
   */
  rollouts: AnalysedRollout[];
  /** The rollouts as columns, when the analysis kept them so: `count`, and rollout `at(row)` made on demand. */
  rows?: AnalysedRows;
  diagnostics: Diagnostic[];
  report: FileReport;
  settings: ProfSettings;
  scorer: { kind: string; label: string; model?: string; profile?: string; provider?: string };
}

/** Rollouts made on demand from columns (see `RolloutTable`), each a new object. */
export interface AnalysedRows {
  readonly count: number;
  at(row: number): AnalysedRollout;
  /** The 1-based line and response index of a row, and whether PROF keeps it, without making the rollout. */
  line(row: number): number;
  index(row: number): number;
  isKept(row: number): boolean;
  /** What a run's step summary reads of a row, in `into` (reused row after row). */
  brief(row: number, into: RolloutBrief): RolloutBrief;
  /** The columns themselves, for readers of every row that must not make a rollout per row (the explorer). */
  readonly table?: RolloutTable;
}

/** The few fields a run's step summary reads of each rollout. */
export type RolloutBrief = Pick<AnalysedRollout, 'group' | 'outcome' | 'decision' | 'responseChars'>;

/** The rollouts' briefs in file order; with columns, one object refilled row after row (do not keep them). */
export function* eachBrief(a: Pick<FileAnalysis, 'rollouts' | 'rows'>): Generator<RolloutBrief> {
  const rows = a.rows;
  if (!rows) {
    yield* a.rollouts;
    return;
  }
  const into = { group: '', outcome: { kind: 'unknown', source: 'none' }, decision: null, responseChars: 0 } as unknown as RolloutBrief;
  for (let row = 0; row < rows.count; row++) yield rows.brief(row, into);
}

/** How many rollouts the analysis holds (without making them). */
export function rolloutCount(a: Pick<FileAnalysis, 'rollouts' | 'rows'>): number {
  return a.rows ? a.rows.count : a.rollouts.length;
}

/** The rollouts in file order, made one at a time when the analysis holds them as columns. */
export function* eachRollout(a: Pick<FileAnalysis, 'rollouts' | 'rows'>): Generator<AnalysedRollout> {
  const rows = a.rows;
  if (!rows) {
    yield* a.rollouts;
    return;
  }
  for (let row = 0; row < rows.count; row++) yield rows.at(row);
}

/** Map decoded step offsets to raw-line offsets for a rollout whose response is a single literal. */
export function rawStepSpans(raw: string, rollout: Pick<Rollout, 'responsePath' | 'responseShift'>, steps: readonly Step[]): { start: number; end: number }[] | null {
  if (!rollout.responsePath) return null;
  const location = locateString(raw, rollout.responsePath);
  if (!location) return null;
  const shift = rollout.responseShift;
  const offsets: number[] = [];
  for (const s of steps) offsets.push(s.start + shift, s.end + shift);
  const mapped = decodedToRaw(raw, location, offsets);
  return steps.map((_, i) => ({ start: mapped[2 * i] as number, end: mapped[2 * i + 1] as number }));
}
