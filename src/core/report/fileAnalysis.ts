/**
 * The analysed file as every surface sees it: each rollout with its steps, scores, outcome and
 * PROF decision, plus the file's diagnostics and report.
 */
import { groupNamesOf } from '../presentation/groupNames';
import type { AnalysedRollout } from '../table/analysedRollout';
import type { Diagnostic, Rollout, Step } from '../model';
import type { FileReport } from './fileReport';
import type { ProfSettings } from '../profSettings';
import type { RolloutTable } from '../table/rolloutTable';
import { decodedToRaw, locateString } from '../read/rawJson';
import { groupIds } from './groupIds';
import { SUSPECTED_BIT } from '../rules/falsePositiveMask';

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

/**
 * The suspected false positives in file order, made one at a time; with columns, only the flagged
 * rows are made (making a rollout derives its facts: most rows are not flagged).
 */
export function* eachSuspected(a: Pick<FileAnalysis, 'rollouts' | 'rows'>): Generator<AnalysedRollout> {
  const rows = a.rows;
  const table = rows?.table;
  if (!rows || !table) {
    for (const r of eachRollout(a)) if (r.falsePositive.suspected) yield r;
    return;
  }
  for (let row = 0; row < rows.count; row++) if ((table.falsePositiveMask(row) & SUSPECTED_BIT) !== 0) yield rows.at(row);
}

/** The readable group ids (`groupIds`), from the table's groups when the analysis has one (no rollout made). */
export function groupIdsOfAnalysis(a: Pick<FileAnalysis, 'rollouts' | 'rows'>): Map<string, string> {
  const table = a.rows?.table;
  return groupIds(table ? table.groupQuestions() : eachRollout(a));
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

/** Groups named at most (a name a label of at most 160 characters: 20,000 of them a few MB). */
export const MAX_NAMED_GROUPS = 20_000;

/**
 * Each group's name (its question without the instruction every group of the file shares), by the
 * id of its first rollout, in file order; the first `limit` groups.
 */
export function groupNamesOfAnalysis(a: FileAnalysis, limit = MAX_NAMED_GROUPS): Map<number, string> {
  const firsts = a.rows?.table ? a.rows.table.groupQuestions() : firstOfEachGroup(a);
  const names = groupNamesOf(firsts);
  const byRow = new Map<number, string>();
  for (const g of firsts) {
    if (byRow.size >= limit) break;
    byRow.set(g.firstRow, names.get(g.group) ?? '');
  }
  return byRow;
}

function firstOfEachGroup(a: FileAnalysis): { group: string; firstRow: number; question: string }[] {
  const seen = new Set<string>();
  const firsts: { group: string; firstRow: number; question: string }[] = [];
  for (const r of a.rollouts) {
    if (seen.has(r.group)) continue;
    seen.add(r.group);
    firsts.push({ group: r.group, firstRow: r.id, question: r.prompt });
  }
  return firsts;
}
