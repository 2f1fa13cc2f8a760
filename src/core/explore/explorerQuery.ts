/**
 * What the user asks the Rollout Explorer: a compound filter and a sort, JSON-plain and versioned
 * so a webview can keep it in its saved state. `parseExplorerQuery` checks a value from outside
 * (saved state, a message) and returns its canonical form: conditions in a fixed order, lists
 * without repeats, ranges on one column merged, no-op conditions left out. Two queries that mean
 * the same have the same canonical JSON (`queryKey`), which is what results are cached under.
 */
import type { OutcomeKind, ReasonCode } from '../model';
import { OUTCOME_ORDER, REASON_ORDER } from './explorerTable';
import { isRecord } from '../isRecord';
import { FLAGGED_IDS, type FlaggedId } from '../health/rolloutFlags';
import { RULE_NAMES, ruleNamed, ruleProblems } from '../rules/registry';
import type { ParamValue, RuleParams } from '../rules/rule';
import { columnNames, type ExplorerColumn, type NumericColumn } from './explorerColumns';

export const QUERY_VERSION = 1;

/** The numeric columns in canonical order (reward columns follow, by name). */
export const NUMERIC_COLUMNS: readonly NumericColumn[] = columnNames<NumericColumn>((c) => c.kind === 'number');
/** Every sortable column: each declared one. */
export const SORT_COLUMNS: readonly ExplorerColumn[] = columnNames(() => true);

/** Inclusive bounds on a numeric column; a row without a number there never passes. */
export interface ColumnRange {
  column: NumericColumn;
  min?: number;
  max?: number;
}

/** Full-text search: a literal (case-insensitive) or an RE2 pattern, over prompt and response. */
export interface TextQuery {
  text: string;
  mode: 'plain' | 'regex';
  /** Where to look; absent: both. */
  fields?: ('prompt' | 'response')[];
}

/** Every condition is optional; a row passes when it meets all that are given. */
export interface ExplorerFilter {
  /** Any of these outcomes. */
  outcomes?: OutcomeKind[];
  /** Any of these PROF reasons (`dropped-tie` is "tied"). */
  reasons?: ReasonCode[];
  kept?: boolean;
  suspectedFalsePositive?: boolean;
  penalised?: boolean;
  unscored?: boolean;
  /** One group, by its readable id. */
  group?: string;
  ranges?: ColumnRange[];
  search?: TextQuery;
  /** These rollouts by place (a Run Dashboard health point names them), with what they show in words. */
  rollouts?: RolloutList;
  /** Rollouts that show any of these health detectors (a run's table; a file's rows show none). */
  health?: FlaggedId[];
  /** The rollouts two curation rules disagree on: kept by one, dropped by the other. */
  disagree?: RuleDisagreement;
}

/** Two curation rules, each with the parameters it is given (the rest take their defaults). */
export interface RuleDisagreement {
  a: string;
  b: string;
  /** Per rule (a and b only), its parameters by their reference names. */
  params: Record<string, RuleParams>;
}

/** A list of rollouts named by place: at most `MAX_LISTED_ROLLOUTS`, sorted, without repeats. */
export interface RolloutList {
  label: string;
  places: RolloutListPlace[];
}

/** A listed rollout: its line and response index, and in a run's table its step file. */
export interface RolloutListPlace {
  line: number;
  index: number;
  file?: string;
}

export const MAX_LISTED_ROLLOUTS = 1000;

export interface ExplorerSort {
  column: ExplorerColumn;
  descending: boolean;
}

export interface ExplorerQuery {
  version: typeof QUERY_VERSION;
  filter: ExplorerFilter;
  /** Null: file order. */
  sort: ExplorerSort | null;
}

/** The longest search text or pattern accepted. */
export const MAX_SEARCH_CHARS = 1000;

/** A query that cannot be used, with what was expected. */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}

/** Every rollout, in file order. */
export function emptyQuery(): ExplorerQuery {
  return { version: QUERY_VERSION, filter: {}, sort: null };
}

export function isNumericColumn(value: unknown): value is NumericColumn {
  return typeof value === 'string' && ((NUMERIC_COLUMNS as readonly string[]).includes(value) || (value.startsWith('reward:') && value.length > 7));
}

function isColumn(value: unknown): value is ExplorerColumn {
  return isNumericColumn(value) || (typeof value === 'string' && (SORT_COLUMNS as readonly string[]).includes(value));
}

/** Members of `known` that `value` lists, in `known`'s order; an unknown member is an error. */
function enumList<T extends string>(value: unknown, known: readonly T[], what: string): T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new QueryError(`${what} must be a list`);
  for (const v of value) if (!known.includes(v as T)) throw new QueryError(`${what}: ${JSON.stringify(v)?.slice(0, 60)} is not one of ${known.join(', ')}`);
  const list = known.filter((k) => value.includes(k));
  return list.length > 0 ? list : undefined;
}

function flag(value: unknown, what: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new QueryError(`${what} must be true or false`);
  return value;
}

function bound(value: unknown, what: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value)) throw new QueryError(`${what} must be a number`);
  return value;
}

/** Ranges merged per column (the tighter bound wins), in canonical column order. */
function ranges(value: unknown): ColumnRange[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new QueryError('ranges must be a list');
  const merged = new Map<NumericColumn, ColumnRange>();
  for (const r of value) {
    if (!isRecord(r) || !isNumericColumn(r['column'])) throw new QueryError(`a range needs a numeric column (${NUMERIC_COLUMNS.join(', ')}, reward:<name>)`);
    const column = r['column'];
    const min = bound(r['min'], `${column} minimum`);
    const max = bound(r['max'], `${column} maximum`);
    const known = merged.get(column) ?? { column };
    if (min !== undefined && min !== -Infinity) known.min = known.min === undefined ? min : Math.max(known.min, min);
    if (max !== undefined && max !== Infinity) known.max = known.max === undefined ? max : Math.min(known.max, max);
    merged.set(column, known);
  }
  const list = [...merged.values()].filter((r) => r.min !== undefined || r.max !== undefined);
  list.sort((a, b) => columnRank(a.column) - columnRank(b.column) || (a.column < b.column ? -1 : a.column > b.column ? 1 : 0));
  return list.length > 0 ? list.map((r) => ({ column: r.column, ...(r.min !== undefined ? { min: r.min } : {}), ...(r.max !== undefined ? { max: r.max } : {}) })) : undefined;
}

function columnRank(column: NumericColumn): number {
  const at = NUMERIC_COLUMNS.indexOf(column);
  return at === -1 ? NUMERIC_COLUMNS.length : at;
}

function search(value: unknown): TextQuery | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value) || typeof value['text'] !== 'string') throw new QueryError('search needs a text');
  const mode = value['mode'] ?? 'plain';
  if (mode !== 'plain' && mode !== 'regex') throw new QueryError('search mode must be plain or regex');
  const text = value['text'];
  if (text === '') return undefined;
  if (text.length > MAX_SEARCH_CHARS) throw new QueryError(`the search text is ${text.length} characters long; at most ${MAX_SEARCH_CHARS} are searched for`);
  const fields = enumList(value['fields'], ['prompt', 'response'] as const, 'search fields');
  return { text, mode, ...(fields && fields.length === 1 ? { fields } : {}) };
}

/**
 * The canonical form of a query from outside (saved state, a message); throws a `QueryError`
 * saying what is wrong. Unknown keys are ignored, a saved query of another version is refused.
 */
export function parseExplorerQuery(value: unknown): ExplorerQuery {
  if (!isRecord(value)) throw new QueryError('a query is an object with version, filter and sort');
  if (value['version'] !== QUERY_VERSION) throw new QueryError(`query version ${JSON.stringify(value['version'])?.slice(0, 20)} is not known (this version reads ${QUERY_VERSION})`);
  const f = value['filter'] ?? {};
  if (!isRecord(f)) throw new QueryError('filter must be an object');
  const filter: ExplorerFilter = {};
  const outcomes = enumList(f['outcomes'], OUTCOME_ORDER, 'outcomes');
  if (outcomes) filter.outcomes = outcomes;
  const reasons = enumList(f['reasons'], REASON_ORDER, 'reasons');
  if (reasons) filter.reasons = reasons;
  for (const key of ['kept', 'suspectedFalsePositive', 'penalised', 'unscored'] as const) {
    const v = flag(f[key], key);
    if (v !== undefined) filter[key] = v;
  }
  if (f['group'] !== undefined && f['group'] !== null) {
    if (typeof f['group'] !== 'string') throw new QueryError('group must be a group id');
    filter.group = f['group'];
  }
  const r = ranges(f['ranges']);
  if (r) filter.ranges = r;
  const s = search(f['search']);
  if (s) filter.search = s;
  const listed = rolloutList(f['rollouts']);
  if (listed) filter.rollouts = listed;
  const health = enumList(f['health'], FLAGGED_IDS, 'health');
  if (health) filter.health = health;
  const disagree = disagreement(f['disagree']);
  if (disagree) filter.disagree = disagree;
  return { version: QUERY_VERSION, filter, sort: sortOf(value['sort']) };
}

function rolloutList(value: unknown): RolloutList | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value) || typeof value['label'] !== 'string' || !Array.isArray(value['places'])) throw new QueryError('rollouts needs a label and a list of places');
  if (value['places'].length > MAX_LISTED_ROLLOUTS) throw new QueryError(`rollouts lists ${value['places'].length} places; at most ${MAX_LISTED_ROLLOUTS} are taken`);
  const isPlaceNumber = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  const places = new Map<string, RolloutListPlace>();
  for (const p of value['places']) {
    if (!isRecord(p) || !isPlaceNumber(p['line']) || !isPlaceNumber(p['index'])) throw new QueryError('a place is {line, index}, whole numbers');
    const file = p['file'];
    if (file !== undefined && typeof file !== 'string') throw new QueryError('a place\'s file is a path');
    places.set(`${file ?? ''}\u0000${p['line']}:${p['index']}`, { line: p['line'], index: p['index'], ...(file === undefined ? {} : { file }) });
  }
  const sorted = [...places.values()].sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || a.line - b.line || a.index - b.index);
  return { label: value['label'].slice(0, 80), places: sorted };
}

function disagreement(value: unknown): RuleDisagreement | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value) || typeof value['a'] !== 'string' || typeof value['b'] !== 'string') throw new QueryError('disagree needs two rules, a and b');
  const a = value['a'];
  const b = value['b'];
  for (const name of [a, b]) if (!ruleNamed(name)) throw new QueryError(`disagree: ${JSON.stringify(name.slice(0, 40))} is not a rule (expected one of ${RULE_NAMES.join(', ')})`);
  if (a === b) throw new QueryError('disagree needs two different rules');
  const given = value['params'] ?? {};
  if (!isRecord(given)) throw new QueryError('disagree params must be an object of rule → parameters');
  const params: Record<string, RuleParams> = {};
  for (const name of [a, b]) {
    const p = given[name];
    if (p === undefined || p === null) continue;
    if (!isRecord(p) || !Object.values(p).every(isParamValue)) throw new QueryError(`disagree params of ${name} must be an object of numbers, booleans and strings`);
    const problems = ruleProblems({ rule: name, params: p as RuleParams });
    if (problems.length > 0) throw new QueryError(`disagree: ${problems[0]}`);
    // Keys sorted, so two queries that give the same parameters have one canonical form.
    const sorted = Object.fromEntries(Object.keys(p).sort().map((k) => [k, p[k] as ParamValue]));
    if (Object.keys(sorted).length > 0) params[name] = sorted;
  }
  return { a, b, params };
}

function isParamValue(value: unknown): value is ParamValue {
  return value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string';
}

function sortOf(value: unknown): ExplorerSort | null {
  if (value === undefined || value === null) return null;
  if (!isRecord(value) || !isColumn(value['column'])) throw new QueryError(`sort needs a column (${SORT_COLUMNS.join(', ')}, reward:<name>)`);
  const descending = flag(value['descending'], 'descending') ?? false;
  // File order ascending is no sort at all.
  if (value['column'] === 'line' && !descending) return null;
  return { column: value['column'], descending };
}

/** The canonical JSON of a query: equal for queries that mean the same. */
export function queryKey(query: ExplorerQuery): string {
  return JSON.stringify(parseExplorerQuery(query));
}

/** The canonical JSON of a search (what search results are cached under). */
export function searchKey(search: TextQuery): string {
  return JSON.stringify([search.mode, search.text, search.fields ?? ['prompt', 'response']]);
}
