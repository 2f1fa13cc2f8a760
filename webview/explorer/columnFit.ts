/**
 * Which of the explorer's columns a panel of a given width shows. A panel opens beside the file,
 * often half an editor wide: rather than push columns off-screen behind a sideways scroll, the
 * list shows the columns that fit, most telling first (where the rollout is, its outcome, what
 * PROF did with it, why it is suspect), and folds the rest into the row's tooltip and the detail
 * line under the list. A sorted column is always shown: it is what the order is read by.
 */
import { EXPLORER_COLUMNS, columnNames, declaredColumn, type ExplorerColumn } from '../../src/core/explore/explorerColumns';

/** An explorer column, or the search's match snippet. */
export type Column = ExplorerColumn | 'match';

/** The match snippet's width in em; a reward column takes `DEFAULT_WIDTH`; the rest are declared with their column. */
const MATCH_WIDTH = 16;
const DEFAULT_WIDTH = 5;
/** The match snippet is given room first; reward columns after every declared one. */
const REWARD_ROOM = Math.max(...EXPLORER_COLUMNS.map((c) => c.room)) + 1;

/** Every declared column a file's rows have (a run's rows add its run-only ones). */
const FILE_COLUMNS: readonly ExplorerColumn[] = columnNames((c) => !c.isRunOnly);
const RUN_COLUMNS: readonly ExplorerColumn[] = columnNames((c) => c.isRunOnly === true);

/** Every column a result's rows have, in their order: the match first when searching, a run's columns, the declared ones, the file's rewards. */
export function listColumns(options: { rewardColumns: readonly string[]; isSearching: boolean; isRun?: boolean }): Column[] {
  return [...(options.isSearching ? ['match' as const] : []), ...(options.isRun ? RUN_COLUMNS : []), ...FILE_COLUMNS, ...options.rewardColumns.map((n) => `reward:${n}` as const)];
}

/** A column's width in em. */
export function columnWidth(column: Column): number {
  return column === 'match' ? MATCH_WIDTH : (declaredColumn(column)?.width ?? DEFAULT_WIDTH);
}

function rank(column: Column): number {
  return column === 'match' ? 0 : (declaredColumn(column)?.room ?? REWARD_ROOM);
}

/** Columns of prose (the match snippet, a decision, the evidence) take the room left over. */
function isFlexible(column: Column): boolean {
  return column === 'match' || declaredColumn(column)?.isProse === true;
}

/**
 * The columns that fit `availableEm`, in their own order. The sorted column is placed first, then
 * the rest by priority while they fit; at least the two most telling are always shown.
 */
export function fitColumns(columns: readonly Column[], availableEm: number, sorted: Column | null): Column[] {
  const byPriority = [...columns].sort((a, b) => (a === sorted ? -1 : b === sorted ? 1 : rank(a) - rank(b)));
  const chosen = new Set<Column>();
  let used = 0;
  for (const column of byPriority) {
    const width = columnWidth(column);
    if (chosen.size >= 2 && used + width > availableEm) continue;
    chosen.add(column);
    used += width;
  }
  return columns.filter((c) => chosen.has(c));
}

/** The grid's template: fixed widths, prose columns sharing what is left. */
export function gridTemplate(columns: readonly Column[]): string {
  return columns.map((c) => (isFlexible(c) ? `minmax(${columnWidth(c)}em, 1fr)` : `${columnWidth(c)}em`)).join(' ');
}
