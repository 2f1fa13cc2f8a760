/**
 * Length-bucketed batching: rows sorted by token count and packed so that a batch's padded size
 * (rows × longest row) stays under a token budget. Sorting keeps padding, and so wasted compute,
 * small; each row keeps its key so results go back to their items in the original order.
 */

/** One sequence to run: its ids and the positions whose outputs are read. */
export interface BatchRow {
  /** The caller's key for the row (e.g. the item's index in the request). */
  key: number;
  ids: readonly number[];
  positions: readonly number[];
}

/**
 * Packs rows into batches of padded size at most `batchTokens` (a row longer than the budget
 * runs alone). Rows are sorted by length, ties by key, so the plan is deterministic.
 */
export function planBatches(rows: readonly BatchRow[], batchTokens: number): BatchRow[][] {
  const sorted = [...rows].sort((a, b) => a.ids.length - b.ids.length || a.key - b.key);
  const batches: BatchRow[][] = [];
  let current: BatchRow[] = [];
  for (const row of sorted) {
    // Sorted ascending, so this row is the longest of the batch if it joins.
    const paddedIfAdded = (current.length + 1) * Math.max(1, row.ids.length);
    if (current.length > 0 && paddedIfAdded > batchTokens) {
      batches.push(current);
      current = [];
    }
    current.push(row);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
