/**
 * A selection of rollouts as the lines that hold them: for each such line (or JSON array element),
 * every rollout on it and whether it is selected. This is what `keptLineBytes` takes, so an export
 * of a selection writes a line whole when all its rollouts are selected, trimmed to the selected
 * responses of a grouped line otherwise, byte for byte as `filter` writes kept rollouts.
 */

/** Where each rollout is (row = rollout id): its line, its response index there, its array element (-1 for JSONL). */
export interface RolloutPlaces {
  readonly count: number;
  line(row: number): number;
  index(row: number): number;
  item(row: number): number;
}

/** One rollout of a line, with whether it is selected (`kept`, in `keptLineBytes`'s terms). */
export interface SelectedOnLine {
  index: number;
  decision: { kept: boolean };
}

/** The selection by record: JSONL line → its rollouts, JSON array element → its rollouts. */
export interface SelectionLines {
  lines: Map<number, SelectedOnLine[]>;
  items: Map<number, SelectedOnLine[]>;
  /** Rollouts selected (ids out of range are not counted). */
  selected: number;
}

/** The records holding the selected rollouts (`ids`: rollout ids, any order, repeats allowed). */
export function selectionLines(places: RolloutPlaces, ids: Iterable<number>): SelectionLines {
  const isSelected = new Uint8Array(places.count);
  let selected = 0;
  for (const id of ids) {
    if (!Number.isInteger(id) || id < 0 || id >= places.count || isSelected[id] === 1) continue;
    isSelected[id] = 1;
    selected++;
  }
  const touched = new Set<number>();
  const keyOf = (row: number): number => (places.item(row) === -1 ? places.line(row) : -1 - places.item(row));
  for (let row = 0; row < places.count; row++) if (isSelected[row] === 1) touched.add(keyOf(row));
  const lines = new Map<number, SelectedOnLine[]>();
  const items = new Map<number, SelectedOnLine[]>();
  for (let row = 0; row < places.count; row++) {
    const key = keyOf(row);
    if (!touched.has(key)) continue;
    const target = key >= 0 ? lines : items;
    const at = key >= 0 ? key : places.item(row);
    const list = target.get(at) ?? [];
    list.push({ index: places.index(row), decision: { kept: isSelected[row] === 1 } });
    target.set(at, list);
  }
  return { lines, items, selected };
}
