/**
 * Which of the explorer's columns a panel of a given width shows. A panel opens beside the file,
 * often half an editor wide: rather than push columns off-screen behind a sideways scroll, the
 * list shows the columns that fit, most telling first (where the rollout is, its outcome, what
 * PROF did with it, why it is suspect), and folds the rest into the row's tooltip and the detail
 * line under the list. A sorted column is always shown: it is what the order is read by.
 */
import type { ExplorerColumn } from '../../src/core/explore/explorerQuery';

/** An explorer column, or the search's match snippet. */
export type Column = ExplorerColumn | 'match';

/** Each column's width in em (a reward column, unlisted, takes `DEFAULT_WIDTH`). */
export const WIDTHS: Readonly<Partial<Record<Column, number>>> = {
  line: 7, step: 3.5, group: 5, outcome: 6.5, extracted: 6, gold: 5, steps: 3, meanScore: 5.5, weakestScore: 7.5,
  consistency: 6.5, decision: 11, falsePositive: 12, penalised: 5.5, unscored: 6, responseChars: 5, match: 16,
};
const DEFAULT_WIDTH = 5;
/** Columns of prose that take the room left over once the chosen columns are placed. */
const FLEXIBLE = new Set<Column>(['match', 'decision', 'falsePositive']);

/** The order columns are given room in, most telling first; reward columns come after these. */
const PRIORITY: readonly Column[] = [
  'match', 'line', 'step', 'outcome', 'decision', 'falsePositive', 'extracted', 'steps', 'weakestScore', 'gold',
  'meanScore', 'group', 'consistency', 'penalised', 'unscored', 'responseChars',
];

/** A column's width in em. */
export function columnWidth(column: Column): number {
  return WIDTHS[column] ?? DEFAULT_WIDTH;
}

function rank(column: Column): number {
  const at = PRIORITY.indexOf(column);
  return at < 0 ? PRIORITY.length : at;
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
  return columns.map((c) => (FLEXIBLE.has(c) ? `minmax(${columnWidth(c)}em, 1fr)` : `${columnWidth(c)}em`)).join(' ');
}
