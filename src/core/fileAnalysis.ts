/**
 * The analysed file as every surface sees it: each rollout with its steps, scores, outcome and
 * PROF decision, plus the file's diagnostics and report.
 */
import type { AnalysedRollout } from './analysedRollout';
import type { Diagnostic, Rollout, Step } from './model';
import type { FileReport } from './fileReport';
import type { ProfSettings } from './profSettings';
import type { RolloutTable } from './rolloutTable';
import { decodedToRaw, locateString } from './rawJson';

export type { AnalysedRollout };

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
