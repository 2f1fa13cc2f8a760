/**
 * PROF's decisions and the file's report made while the file is read. Both run once per file, and
 * code that runs once, at the end, runs before the engine has optimised it (a dump's groups were
 * decided and counted about ten times slower than the same code run a second time). Most dumps
 * hold each group's rollouts together, so a group is decided as soon as the next group starts,
 * and its rollouts go into the report then, in file order. When a group comes back after another
 * started, everything is decided again at the end instead (`decideTable`, `buildReport`): the
 * result is the same either way.
 */
import type { Decision } from './model';
import type { ProfSettings } from './profSettings';
import type { RolloutTable } from './rolloutTable';
import { decideRows, decideTable } from './decideTable';
import { buildReport, ReportBuilder, type FileReport, type ReportEntry } from './fileReport';
import { NOT_SUSPECTED } from './groups';

export class DecidingAsRead {
  /** False once a group came back (or for the POS variant): then all is decided at the end. */
  private isOnTrack = true;
  /** The group whose rollouts are being read, and its first row. */
  private runGroup = -1;
  private runStart = 0;
  private readonly report = new ReportBuilder();
  private readonly entry: ReportEntry = newEntry();
  private readonly decision = {} as Decision;

  constructor(private readonly table: RolloutTable, private readonly settings: ProfSettings) {
    if (settings.variant === 'pos') this.isOnTrack = false;
  }

  /** Hears each row as it is added to the table, in order. */
  added(row: number): void {
    if (!this.isOnTrack) return;
    const group = this.table.groupNumber(row);
    if (group === this.runGroup) return;
    // Groups are numbered in order of first appearance: a number not above the last is a group seen before.
    if (group <= this.runGroup) {
      this.isOnTrack = false;
      return;
    }
    this.closeRun(row);
    this.runGroup = group;
    this.runStart = row;
  }

  /** Every group decided (in the table) and the report, as `decideTable` and `buildReport` give them. */
  finish(unreadableLines: number): FileReport {
    if (!this.isOnTrack) {
      decideTable(this.table, this.settings);
      return buildReport(reportEntries(this.table), unreadableLines);
    }
    this.closeRun(this.table.count);
    return this.report.finish(unreadableLines);
  }

  /** The group of rows `runStart` to `end` is complete: decided, and counted in the report. */
  private closeRun(end: number): void {
    if (this.runGroup === -1 || end === this.runStart) return;
    decideRows(this.table, this.settings, this.runStart, end);
    for (let row = this.runStart; row < end; row++) this.report.add(entryOf(this.table, row, this.entry, this.decision));
  }
}

/** What the report reads of each rollout, from the table: one entry object, filled in row by row. */
export function* reportEntries(table: RolloutTable): Generator<ReportEntry> {
  const entry = newEntry();
  for (let row = 0; row < table.count; row++) yield entryOf(table, row, entry);
}

function newEntry(): ReportEntry {
  return { group: '', outcome: { kind: 'unknown' } as ReportEntry['outcome'], decision: null as unknown as Decision, falsePositive: NOT_SUSPECTED, scorer: '', format: 'generic', questionReading: { kind: 'plain' } };
}

function entryOf(table: RolloutTable, row: number, entry: ReportEntry, decision?: Decision): ReportEntry {
  entry.group = table.group(row);
  entry.format = table.format(row);
  entry.questionReading = table.questionReading(row);
  entry.outcome = table.outcome(row);
  entry.decision = table.decision(row, decision);
  entry.falsePositive = table.falsePositive(row);
  entry.scorer = table.scorer(row);
  return entry;
}
