/**
 * The explorer's filter and sort keys over its table: one pass over the typed arrays per query,
 * each condition a test on one column. Search is not here: its hits come from `searchTexts` and
 * are combined by the engine.
 */
import type { ExplorerFilter } from './explorerQuery';
import type { ExplorerColumn, NumericColumn, TextNumbers } from './explorerColumns';
import { declaredColumn } from './explorerColumns';
import { OUTCOME_ORDER, REASON_ORDER, type ExplorerTable } from './explorerTable';
import { FLAGGED_IDS } from '../health/rolloutFlags';

/** What sorts remember between queries on one table: each text column's ranks. */
export type SortCache = Map<string, Float64Array>;

/** The number a row has in a numeric column (NaN for none). */
export function numericColumnOf(table: ExplorerTable, column: NumericColumn): (row: number) => number {
  const declared = declaredColumn(column);
  if (declared?.kind === 'number') {
    if (!declared.isKept) return declared.value(table);
    const kept = table.keptNumbers(declared.name, declared.value(table));
    return (row) => kept[row] as number;
  }
  const values = table.rewards.get(column.slice('reward:'.length));
  return values ? (row) => values[row] as number : () => Number.NaN;
}

/**
 * Ranks of the distinct texts a column's rows use, by text number: numbers by value before other
 * text, text by code units; equal texts share a rank, so ties keep file order.
 */
function textRanks(texts: TextNumbers, count: number): Float64Array {
  const isUsed = new Uint8Array(texts.size);
  // Each distinct text once, with the numbers that carry it (several outcomes may share an answer).
  const numbersOf = new Map<string, number[]>();
  for (let row = 0; row < count; row++) {
    const id = texts.numberOf(row);
    if (id === -1 || isUsed[id] === 1) continue;
    isUsed[id] = 1;
    const text = texts.text(id);
    if (text === null) continue;
    const ids = numbersOf.get(text);
    if (ids) ids.push(id);
    else numbersOf.set(text, [id]);
  }
  const entries = [...numbersOf.keys()].map((text) => ({ text, number: /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : Number.NaN }));
  entries.sort((a, b) => {
    const x = a.number;
    const y = b.number;
    if (!Number.isNaN(x) || !Number.isNaN(y)) {
      if (Number.isNaN(x)) return 1;
      if (Number.isNaN(y)) return -1;
      if (x !== y) return x - y;
    }
    return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
  });
  // A number without a text (or unused) has no rank: NaN sorts last.
  const ranks = new Float64Array(texts.size).fill(Number.NaN);
  entries.forEach((e, rank) => {
    for (const id of numbersOf.get(e.text) as number[]) ranks[id] = rank;
  });
  return ranks;
}

/** The sort key of a row in any column (NaN sorts last). `cache` keeps text columns' ranks. */
export function sortKeyOf(table: ExplorerTable, column: ExplorerColumn, cache: SortCache): (row: number) => number {
  const declared = declaredColumn(column);
  if (!declared || declared.kind === 'number') return numericColumnOf(table, column as NumericColumn);
  if (declared.kind === 'order') return declared.value(table);
  const texts = declared.texts(table);
  let ranks = cache.get(column);
  if (!ranks) cache.set(column, (ranks = textRanks(texts, table.count)));
  const known = ranks;
  return (row) => {
    const id = texts.numberOf(row);
    return id === -1 ? Number.NaN : (known[id] as number);
  };
}

/** A bit set of enum members (their index in `order`). */
function maskOf<T>(members: readonly T[] | undefined, order: readonly T[]): number {
  if (!members) return -1;
  let mask = 0;
  for (const m of members) mask |= 1 << order.indexOf(m);
  return mask;
}

/**
 * The listed rollouts as a test on a row, or null when the filter lists none: by line and response
 * index, and in a run's table by step file too (a place without a file matches that line in any).
 */
function listedPlaces(table: ExplorerTable, filter: ExplorerFilter): ((row: number) => boolean) | null {
  if (!filter.rollouts) return null;
  const run = table.run;
  const fileNumbers = new Map((run?.files ?? []).map((f, i) => [f, i]));
  const byFile = !!run && filter.rollouts.places.some((p) => p.file !== undefined);
  const keys = new Set<string>();
  for (const p of filter.rollouts.places) keys.add(`${byFile ? (fileNumbers.get(p.file ?? '') ?? -1) : ''}:${p.line}:${p.index}`);
  return (row) => keys.has(`${byFile ? (run.file[row] as number) : ''}:${table.line(row)}:${table.index(row)}`);
}

/**
 * The rows that pass every condition but the search and the rules' disagreement, in file order.
 * `isSearchHit` and `isDisagreement`, when given, are further conditions (the search's hits; the
 * rows two rules decide differently).
 */
export function filterRows(table: ExplorerTable, filter: ExplorerFilter, isSearchHit?: Uint8Array, isDisagreement?: Uint8Array): Int32Array {
  const outcomes = maskOf(filter.outcomes, OUTCOME_ORDER);
  const reasons = maskOf(filter.reasons, REASON_ORDER);
  const group = filter.group === undefined ? -2 : table.groupOfId(filter.group);
  const ranges = (filter.ranges ?? []).map((r) => ({ value: numericColumnOf(table, r.column), min: r.min ?? -Infinity, max: r.max ?? Infinity }));
  const { kept, suspectedFalsePositive, penalised, unscored } = filter;
  const listed = listedPlaces(table, filter);
  const health = filter.health ? FLAGGED_IDS.reduce((m, id, i) => (filter.health?.includes(id) ? m | (1 << i) : m), 0) : -1;
  const healthBits = table.run?.health;
  const out = new Int32Array(table.count);
  let n = 0;
  for (let row = 0; row < table.count; row++) {
    if (isSearchHit && isSearchHit[row] !== 1) continue;
    if (isDisagreement && isDisagreement[row] !== 1) continue;
    if (outcomes !== -1 && (outcomes & (1 << table.outcome(row))) === 0) continue;
    if (reasons !== -1 && (reasons & (1 << table.reason(row))) === 0) continue;
    if (kept !== undefined && table.isKept(row) !== kept) continue;
    if (suspectedFalsePositive !== undefined && table.isSuspected(row) !== suspectedFalsePositive) continue;
    if (penalised !== undefined && table.isPenalised(row) !== penalised) continue;
    if (unscored !== undefined && table.isUnscored(row) !== unscored) continue;
    if (group !== -2 && table.group(row) !== group) continue;
    if (listed && !listed(row)) continue;
    if (health !== -1 && (!healthBits || ((healthBits[row] as number) & health) === 0)) continue;
    let isInRange = true;
    for (const r of ranges) {
      const v = r.value(row);
      // NaN fails both comparisons: a row without a number never passes a range.
      if (!(v >= r.min && v <= r.max)) {
        isInRange = false;
        break;
      }
    }
    if (isInRange) out[n++] = row;
  }
  return out.slice(0, n);
}
