/**
 * The Rollout Explorer's columns, each declared once: what it is called, how its value is read
 * from the table's columns, its header and cell words, what may be done with it (sort, a range
 * filter, the query form's range choice, the Compare view) and the room it takes in a panel. The
 * query's guard, the filter, the sort, the words, the webview's row list, its column fit and its
 * query form all read this list, so a column is added here and nowhere else.
 */
import type { ExplorerRow, RunColumns } from './explorerRow';
import type { RolloutTable } from '../table/rolloutTable';
import { formatScore } from '../presentation/numbers';
import { outcomeLabel } from '../presentation/outcomeWords';
import { reasonLabel } from '../presentation/reasonWords';
import { rolloutLocation } from '../presentation/locationWords';

/** A column whose values are a table of distinct texts: each row's text number (-1 for none), and each number's text. */
export interface TextNumbers {
  size: number;
  numberOf(row: number): number;
  /** Null: the rows of this number have no text. */
  text(id: number): string | null;
}

/**
 * What a column's value is read from: the analysis's column store (`source`), and what the
 * Explorer's table derives beside it (`ExplorerTable` is the one reader).
 */
export interface ColumnReader {
  readonly count: number;
  readonly source: RolloutTable;
  readonly run: RunColumns | null;
  /** Group number; the outcome's place in `OUTCOME_ORDER`; the reason's in `REASON_ORDER`. */
  group(row: number): number;
  outcome(row: number): number;
  reason(row: number): number;
  /** A suspected false positive's strength (NaN when not suspected). */
  strength(row: number): number;
  isPenalised(row: number): boolean;
  isUnscored(row: number): boolean;
  extracted(row: number): string | null;
  /** A column's numbers read once for every row and kept (`NumberColumn.isKept`). */
  keptNumbers(name: string, read: (row: number) => number): Float64Array;
}

/** How a number column's cell words its number, when it declares no `cell` of its own. */
export type NumberFormat = 'score' | 'count';

interface ColumnBase {
  readonly name: string;
  readonly header: string;
  /** The cell's text (a dash where there is nothing). */
  readonly cell?: (row: ExplorerRow) => string;
  /** Offered in the query form's range choice. */
  readonly isInForm?: boolean;
  /** Shown in the Compare view's rows. */
  readonly isInCompare?: boolean;
  /** Only a run's table has it (its rows carry a training step). */
  readonly isRunOnly?: boolean;
  /** Width in em, and its place in the order columns are given room when the panel is narrow (lower first). */
  readonly width: number;
  readonly room: number;
  /** Prose: it takes the room left over once the chosen columns are placed. */
  readonly isProse?: boolean;
}

/** A number per row: sortable, and filterable by range. */
export interface NumberColumn extends ColumnBase {
  readonly kind: 'number';
  /** A row's number, read from the table (NaN for none). */
  readonly value: (table: ColumnReader) => (row: number) => number;
  /** A column without a `cell`: its number travels in the row's `figures` and is worded so. */
  readonly format?: NumberFormat;
  /**
   * Its number is a computation over a row's step scores, not a value the store holds: the
   * table keeps every row's number (8 bytes a row) once a filter or a sort first reads them.
   */
  readonly isKept?: boolean;
  /** How a range on it reads in a title (`FP strength ≥ 0.2`); the header when absent. */
  readonly rangeWords?: string;
}

/** A value sortable by a code (group number, outcome, reason, a flag), not filterable by range. */
export interface OrderColumn extends ColumnBase {
  readonly kind: 'order';
  readonly value: (table: ColumnReader) => (row: number) => number;
}

/** A text per row, sorted as text (numbers by value first). */
export interface TextColumn extends ColumnBase {
  readonly kind: 'text';
  readonly texts: (table: ColumnReader) => TextNumbers;
}

export type ColumnDeclaration = NumberColumn | OrderColumn | TextColumn;

/**
 * Where a row sits: `line 12`, `line 3, response 2 of 4` (grouped line), `item 3 (line 1)`; a run's
 * row names its step file first: `step_200.jsonl line 12`.
 */
export function rowPlace(row: Pick<ExplorerRow, 'line' | 'index' | 'item' | 'responsesOnLine' | 'file'>): string {
  const place = rolloutLocation({ line: row.line, item: row.item ?? undefined, index: row.index, count: row.responsesOnLine });
  return row.file === undefined ? place : `${fileLabel(row.file)}:${place.replace(/^line /, '')}`;
}

/** A path's last part, whichever separator it uses. */
function fileLabel(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

const dash = (value: string | null): string => value ?? '—';

/** Every column, in the order a row lists them. */
export const EXPLORER_COLUMNS = [
  { name: 'line', kind: 'number', header: 'line', value: () => (row) => row, cell: rowPlace, isInCompare: true, width: 7, room: 1 },
  { name: 'step', kind: 'number', header: 'step', isRunOnly: true, width: 3.5, room: 2,
    value: (t) => { const steps = t.run?.step; return steps ? (row) => steps[row] as number : () => Number.NaN; },
    cell: (r) => (r.step === undefined ? '—' : String(r.step)) },
  { name: 'group', kind: 'order', header: 'group', value: (t) => (row) => t.group(row), cell: (r) => r.group, width: 5, room: 11 },
  { name: 'outcome', kind: 'order', header: 'outcome', value: (t) => (row) => t.outcome(row), isInCompare: true, width: 6.5, room: 3,
    cell: (r) => { const label = outcomeLabel(r.outcome); return `${label.symbol} ${label.word}`; } },
  { name: 'extracted', kind: 'text', header: 'answer', cell: (r) => dash(r.extracted), isInCompare: true, width: 6, room: 6,
    texts: (t) => ({ size: t.source.outcomeNumbers, numberOf: (row) => t.source.outcomeNumber(row), text: (id) => t.source.outcomeOfNumber(id).extracted ?? null }) },
  { name: 'gold', kind: 'text', header: 'gold', cell: (r) => dash(r.gold), width: 5, room: 9,
    texts: (t) => ({ size: t.source.stringNumbers, numberOf: (row) => t.source.goldNumber(row), text: (id) => t.source.stringOf(id) }) },
  { name: 'steps', kind: 'number', header: 'H', value: (t) => (row) => t.source.decidedSteps(row), cell: (r) => String(r.steps), isInCompare: true, width: 3, room: 7 },
  { name: 'meanScore', kind: 'number', header: 'mean score', value: (t) => (row) => (t.isUnscored(row) ? Number.NaN : t.source.meanStepScore(row)),
    cell: (r) => formatScore(r.meanScore), isKept: true, isInForm: true, isInCompare: true, width: 5.5, room: 10 },
  { name: 'weakestScore', kind: 'number', header: 'weakest step', isKept: true, isInForm: true, isInCompare: true, width: 7.5, room: 8,
    value: (t) => (row) => { const step = t.isUnscored(row) ? -1 : t.source.weakestStep(row); return step === -1 ? Number.NaN : t.source.stepScore(row, step); },
    cell: (r) => (r.weakestScore === null || r.weakestStep === null ? '—' : `${formatScore(r.weakestScore)} (step ${r.weakestStep + 1})`) },
  { name: 'consistency', kind: 'number', header: 'consistency', value: (t) => (row) => t.source.decidedConsistency(row), cell: (r) => formatScore(r.consistency), isInForm: true, width: 6.5, room: 12 },
  { name: 'decision', kind: 'order', header: 'PROF decision', value: (t) => (row) => t.reason(row), cell: (r) => reasonLabel(r.reason), isInCompare: true, isProse: true, width: 11, room: 4 },
  { name: 'falsePositive', kind: 'number', header: 'suspected FP', rangeWords: 'FP strength', value: (t) => (row) => t.strength(row), isInForm: true, isInCompare: true, isProse: true, width: 12, room: 5,
    cell: (r) => (r.suspectedFalsePositive ? `⚠ ${formatScore(r.strength)}${r.evidence ? ` — ${r.evidence}` : ''}` : '—') },
  { name: 'penalised', kind: 'order', header: 'penalised', value: (t) => (row) => (t.isPenalised(row) ? 1 : 0), cell: (r) => (r.penalised ? 'yes' : '—'), width: 5.5, room: 13 },
  { name: 'unscored', kind: 'order', header: 'unscored', value: (t) => (row) => (t.isUnscored(row) ? 1 : 0), cell: (r) => (r.unscored ? (r.unscoredReason ?? 'yes') : '—'), width: 6, room: 14 },
  { name: 'responseChars', kind: 'number', header: 'length', value: (t) => (row) => t.source.responseChars(row), cell: (r) => r.responseChars.toLocaleString('en-US'), isInForm: true, width: 5, room: 15 },
] as const satisfies readonly ColumnDeclaration[];

type Declared = (typeof EXPLORER_COLUMNS)[number];
/** The name of a reward column: the file's name for it. */
export type RewardColumn = `reward:${string}`;
/** Columns with a number per row: sortable, and filterable by range. `reward:<name>` for a reward column. */
export type NumericColumn = Extract<Declared, { kind: 'number' }>['name'] | RewardColumn;
/** Every sortable column. */
export type ExplorerColumn = Declared['name'] | RewardColumn;

/** A declared column by name (a reward column has none: it is the file's). */
export function declaredColumn(name: string): ColumnDeclaration | undefined {
  return (EXPLORER_COLUMNS as readonly ColumnDeclaration[]).find((c) => c.name === name);
}

/** The declared columns' names that meet `test`, in the list's order. */
export function columnNames<T extends string = ExplorerColumn>(test: (c: ColumnDeclaration) => boolean): T[] {
  return (EXPLORER_COLUMNS as readonly ColumnDeclaration[]).filter(test).map((c) => c.name as T);
}

/** A column's header: a reward column is named as the file names it. */
export function columnHeader(column: ExplorerColumn): string {
  return column.startsWith('reward:') ? column.slice('reward:'.length) : (declaredColumn(column)?.header ?? column);
}

/** A column as a range's subject in a title or the form (`H ≥ 20`, `mean score ≤ 0.3`, `FP strength ≥ 0.2`). */
export function rangeSubject(column: NumericColumn): string {
  const declared = declaredColumn(column);
  return declared?.kind === 'number' && declared.rangeWords ? declared.rangeWords : columnHeader(column);
}

/** The number columns whose values travel in a row's `figures` (those without a `cell` of their own). */
const FIGURE_COLUMNS = (EXPLORER_COLUMNS as readonly ColumnDeclaration[]).filter((c): c is NumberColumn => c.kind === 'number' && c.cell === undefined);

/** A row's `figures`: each such column's number (null for none). */
export function figuresOf(table: ColumnReader, row: number): Record<string, number | null> {
  const figures: Record<string, number | null> = {};
  for (const c of FIGURE_COLUMNS) {
    const value = c.value(table)(row);
    figures[c.name] = Number.isNaN(value) ? null : value;
  }
  return figures;
}

function figureText(value: number | null | undefined, format: NumberFormat | undefined): string {
  if (value === null || value === undefined) return '—';
  return format === 'score' ? formatScore(value) : value.toLocaleString('en-US');
}

/** The text of one cell of a row (a dash where there is nothing). */
export function cellText(row: ExplorerRow, column: ExplorerColumn): string {
  const declared = declaredColumn(column);
  if (declared?.cell) return declared.cell(row);
  if (declared) return figureText(row.figures[column], declared.kind === 'number' ? declared.format : undefined);
  const value = row.rewards[column.slice('reward:'.length)];
  return value === null || value === undefined ? '—' : String(value);
}
