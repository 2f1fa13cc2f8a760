/**
 * The one decider: every group of a table is decided by PROF over the table's columns (the figures
 * every rule and the false-positive flags read), then, when the settings choose another rule, that
 * rule re-decides each group over the same columns. `decideList` (rules/decideList.ts) runs the
 * same two passes on one group built from a list, for the panel's what-if.
 */
import type { DecisionColumns, RolloutTable } from '../table/rolloutTable';
import { IS_DECIDED, IS_KEPT, OUTCOME_KINDS, REASONS } from '../table/rolloutTable';
import type { ProfSettings } from '../profSettings';
import type { ReasonCode, RewardField } from '../model';
import { COLUMN_PAGE, COLUMN_PAGE_BITS } from '../table/columns';
import { DeferredFacts } from './deferredFalsePositives';
import { decideProf, type FalsePositiveSink, type GroupOrder } from './prof';
import type { RowSignals } from './profMath';
import type { CurationRule, GroupVerdicts, RuleGroup, RuleParams } from './rule';
import { chosenRule } from './registry';

/** Decides every group of `table` under the settings' rule (PROF by default) and records the decisions in it. */
export function decideTable(table: RolloutTable, settings: ProfSettings): void {
  table.clearFalsePositives();
  const columns = table.decisionColumns(OUTCOME_KINDS);
  const groups = groupOrder(columns.groups, table.count, table.groups.size, (g) => table.groups.value(g));
  decideProf(columns, groups, settings, new TableFalsePositives(table, settings));
  const { rule, params } = chosenRule(settings);
  if (rule.decideGroup !== null) applyRule(rule, params, columns, groups, settings.threshold, (row) => tableSignals(table, row));
  table.commitDecisionColumns(columns);
}

/** Rows by group, in file order within each group (a counting sort on the group numbers). */
export function groupOrder(groupOf: Int32Array, n: number, groups: number, key: (g: number) => string): GroupOrder {
  const starts = new Int32Array(groups + 1);
  for (let row = 0; row < n; row++) starts[groupOf[row]! + 1]!++;
  for (let g = 0; g < groups; g++) starts[g + 1]! += starts[g]!;
  const next = starts.slice(0, groups);
  const order = new Int32Array(n);
  for (let row = 0; row < n; row++) order[next[groupOf[row]!]!++] = row;
  return { starts, order, key };
}

/** The table's deferred false-positive verdicts as PROF's sink. */
class TableFalsePositives implements FalsePositiveSink {
  private readonly deferred: DeferredFacts;
  constructor(private readonly table: RolloutTable, settings: ProfSettings) {
    this.deferred = new DeferredFacts(table, settings);
  }
  add(row: number, why: number, low: number, score: number, consistency: number, upperFloor: number | null, keptFloor: number | null): number {
    return this.deferred.add(row, why, low, score, consistency, upperFloor, keptFloor);
  }
  record(row: number, at: number): void {
    this.table.setDeferredFalsePositive(row, this.deferred, at);
  }
}

const REASON_INDEX = new Map<ReasonCode, number>(REASONS.map((r, i) => [r, i]));
const PAGE_MASK = COLUMN_PAGE - 1;

/** Re-decides every group with `rule`: kept/dropped, reason and (where it ranks) rank; the figures stay PROF's. */
export function applyRule(rule: CurationRule, params: RuleParams, columns: DecisionColumns, groups: GroupOrder, threshold: number, signalsOf: (row: number) => RowSignals): void {
  const view = new ColumnGroup(columns, groups.order, threshold, signalsOf);
  const decideGroup = rule.decideGroup!;
  for (let g = 0; g + 1 < groups.starts.length; g++) {
    view.at(groups.starts[g]!, groups.starts[g + 1]!);
    decideGroup(view, params, view);
  }
}

/** One group of the columns, as a rule reads it and writes its verdicts. */
class ColumnGroup implements RuleGroup, GroupVerdicts {
  size = 0;
  private from = 0;
  constructor(private readonly c: DecisionColumns, private readonly order: Int32Array, private readonly threshold: number, private readonly signalsOf: (row: number) => RowSignals) {}

  at(from: number, to: number): void {
    this.from = from;
    this.size = to - from;
  }
  private row(k: number): number {
    return this.order[this.from + k]!;
  }
  outcome(k: number): number {
    return this.c.outcomeKinds[this.row(k)]!;
  }
  signals(k: number): RowSignals {
    return this.signalsOf(this.row(k));
  }
  score(k: number): number {
    return this.c.score[this.row(k)]!;
  }
  lowStep(k: number): number {
    const row = this.row(k);
    const start = this.c.scoreStart[row]!;
    for (let i = 0; i < this.c.scoreCount[row]!; i++) {
      const at = start + i;
      const x = this.c.scorePages[at >>> COLUMN_PAGE_BITS]![at & PAGE_MASK]!;
      if (Number.isFinite(x) && x < this.threshold) return i;
    }
    return -1;
  }
  set(k: number, kept: boolean, reason: ReasonCode, rank: number | null): void {
    const row = this.row(k);
    this.c.flags[row] = (this.c.flags[row]! & ~IS_KEPT) | IS_DECIDED | (kept ? IS_KEPT : 0);
    this.c.reason[row] = REASON_INDEX.get(reason)!;
    if (rank !== null) this.c.rank[row] = rank;
  }
}

/** A first wrong step's index under the names dumps give it; -1 says "none found". */
const FIRST_ERROR = /^(first_error(_step|_index)?|err(or)?_location|earliest_error)$/;

/** A table row's signals for the rules (read on request: only rules other than PROF ask). */
export function tableSignals(table: RolloutTable, row: number): RowSignals {
  const value = table.outcome(row).value;
  return {
    reward: typeof value === 'number' || typeof value === 'boolean' ? value : null,
    chars: table.responseChars(row),
    flawed: flawedOf(table.rewards(row)),
    text: table.responseText(row),
  };
}

/** The dump's `is_flawed_positive`, or a first-error index (≥ 0: flawed; -1: not); null when neither is there. */
export function flawedOf(fields: readonly RewardField[] | null): boolean | null {
  if (!fields) return null;
  for (const f of fields) {
    if (f.name === 'is_flawed_positive' && f.value !== null) return f.value === true || f.value === 1;
  }
  for (const f of fields) {
    if (FIRST_ERROR.test(f.name) && typeof f.value === 'number') return f.value >= 0;
  }
  return null;
}
