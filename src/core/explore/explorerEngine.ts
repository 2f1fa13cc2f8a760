/**
 * The Rollout Explorer's query engine, hosted where the analysis is (the editor's analysis worker,
 * a command): `query(spec)` filters, searches and sorts once and keeps the ordered ids, so every
 * page after that is a slice (O(page)), and a search's hits are kept apart, so changing the sort
 * or another condition does not search the texts again.
 */
import type { ExplorerQuery, RuleDisagreement, TextQuery } from './explorerQuery';
import { parseExplorerQuery, queryKey, searchKey } from './explorerQuery';
import type { ExplorerRow } from './explorerRow';
import type { ExplorerTable } from './explorerTable';
import { filterRows, sortKeyOf, type SortCache } from './explorerFilter';
import { sortRows } from './stableSort';
import { compileTextQuery, type MatchRange, type TextMatcher } from './textMatcher';
import { searchTexts, type RolloutTextSource, type SearchHits } from './textSearch';
import { queryTitle, rewardColumnsNote } from './explorerWords';
import { matchSnippet, type MatchSnippet } from '../presentation/matchSnippet';

/** Where a row's first search match is. */
export interface RowMatch {
  field: 'prompt' | 'response';
  start: number;
  end: number;
}

/** A row of a page: the row, and its first match when the query searches. */
export type PageRow = ExplorerRow & { match: RowMatch | null };

/** One page of a result, JSON-plain. */
export interface ExplorerPage {
  offset: number;
  total: number;
  rows: PageRow[];
}

/** A query answered: how many rollouts pass, the view's title, and its rows a page at a time. */
export interface ExplorerResult {
  /** The query in canonical form. */
  readonly query: ExplorerQuery;
  /** Its canonical JSON (what the result is cached under; what a page request names). */
  readonly key: string;
  readonly total: number;
  readonly title: string;
  /** The title with the kept group's whole name and id (the title's tooltip). */
  readonly tooltip: string;
  /** Rows `offset` … `offset + limit − 1` in the result's order (limit capped at MAX_PAGE_ROWS). */
  rowsPage(offset: number, limit: number): ExplorerPage;
  /** Every passing rollout id, in order (for "select all", export). */
  readonly ids: Int32Array;
}

/** A page's highlights: each row's matches in its prompt and response, and a snippet around the first. */
export interface RowHighlights {
  id: number;
  prompt: MatchRange[];
  response: MatchRange[];
  snippet: (MatchSnippet & { field: 'prompt' | 'response' }) | null;
}

export interface QueryOptions {
  signal?: AbortSignal;
  /** Rollouts searched so far, while a search reads texts. */
  onProgress?: (searched: number, total: number) => void;
}

/**
 * Where the rules are decided for a `disagree` filter: 1 for each row (by file position) that one
 * rule keeps and the other drops. Null when the explorer has no rules to ask (the filter fails).
 */
export type DisagreementSource = (disagree: RuleDisagreement, signal?: AbortSignal) => Promise<Uint8Array>;

/** The most rows one page holds (what one message carries). */
export const MAX_PAGE_ROWS = 500;
/** Matches highlighted per text. */
const MAX_HIGHLIGHTS = 50;
const KEPT_RESULTS = 8;
const KEPT_SEARCHES = 2;

export class ExplorerEngine {
  private readonly results = new Map<string, ExplorerResult>();
  private readonly searches = new Map<string, SearchHits>();
  private readonly cache: SortCache = new Map();

  /**
   * `texts`: where search reads texts (null when the analysis has none to search); `disagreements`:
   * where a `disagree` filter's rows come from (null: such a filter is refused).
   */
  constructor(readonly table: ExplorerTable, private readonly texts: RolloutTextSource | null, private readonly disagreements: DisagreementSource | null = null) {}

  /** The reward columns the file has, in order of first appearance (at most `MAX_REWARD_COLUMNS`). */
  get rewardColumns(): string[] {
    return [...this.table.rewards.keys()];
  }

  /** Says how many reward names were left out past the cap; null when none was. */
  get rewardColumnsNote(): string | null {
    return rewardColumnsNote(this.table.rewards.size, this.table.rewardsLeftOut.size);
  }

  /** Answers a query (from outside: it is checked first, and a `QueryError` says what is wrong). */
  async query(spec: unknown, options: QueryOptions = {}): Promise<ExplorerResult> {
    const query = parseExplorerQuery(spec);
    const key = queryKey(query);
    const known = this.results.get(key);
    if (known) {
      // Most recently used last: the oldest result goes first when the cache is full.
      this.results.delete(key);
      this.results.set(key, known);
      return known;
    }
    const hits = query.filter.search ? await this.searchHits(query.filter.search, options) : undefined;
    const disagree = query.filter.disagree;
    let differ: Uint8Array | undefined;
    if (disagree) {
      if (!this.disagreements) throw new Error('this explorer cannot decide curation rules (it has no analysis to decide them on)');
      differ = await this.disagreements(disagree, options.signal);
    }
    let ids = filterRows(this.table, query.filter, hits?.matched, differ);
    if (query.sort) ids = sortRows(ids, sortKeyOf(this.table, query.sort.column, this.cache), query.sort.descending);
    const result = this.result(query, key, ids, hits);
    remember(this.results, key, result, KEPT_RESULTS);
    return result;
  }

  /** The matches to highlight in some rows (a page): their texts are read, only theirs. */
  async highlights(ids: readonly number[], search: TextQuery, signal?: AbortSignal): Promise<RowHighlights[]> {
    const texts = this.requireTexts();
    const matcher = compileTextQuery(search);
    const read = await texts.read(ids, signal);
    const inPrompt = search.fields === undefined || search.fields.includes('prompt');
    const inResponse = search.fields === undefined || search.fields.includes('response');
    return ids.map((id, i): RowHighlights => {
      const text = read[i];
      if (!text) return { id, prompt: [], response: [], snippet: null };
      const prompt = inPrompt ? matcher.all(text.prompt, MAX_HIGHLIGHTS) : [];
      const response = inResponse ? matcher.all(text.response, MAX_HIGHLIGHTS) : [];
      const field: 'prompt' | 'response' | null = prompt.length > 0 ? 'prompt' : response.length > 0 ? 'response' : null;
      const snippet = field === null ? null : { field, ...matchSnippet(field === 'prompt' ? text.prompt : text.response, field === 'prompt' ? prompt : response) };
      return { id, prompt, response, snippet };
    });
  }

  private requireTexts(): RolloutTextSource {
    if (!this.texts) throw new Error('this analysis kept no texts to search (it was made without them)');
    return this.texts;
  }

  private async searchHits(search: TextQuery, options: QueryOptions): Promise<SearchHits> {
    const key = searchKey(search);
    const known = this.searches.get(key);
    if (known) return known;
    const texts = this.requireTexts();
    const matcher: TextMatcher = compileTextQuery(search);
    const count = this.table.count;
    const hits = await searchTexts(texts, count, search, matcher, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: (done: number) => options.onProgress?.(done, count) } : {}),
    });
    remember(this.searches, key, hits, KEPT_SEARCHES);
    return hits;
  }

  private result(query: ExplorerQuery, key: string, ids: Int32Array, hits: SearchHits | undefined): ExplorerResult {
    const table = this.table;
    const naming = { groupName: (id: string) => table.groupName(table.groupOfId(id)) };
    return {
      query,
      key,
      ids,
      total: ids.length,
      title: queryTitle(query, ids.length, naming),
      tooltip: queryTitle(query, ids.length, { ...naming, isWhole: true }),
      rowsPage(offset, limit) {
        const from = Math.max(0, Math.min(ids.length, Math.floor(offset)));
        const to = Math.min(ids.length, from + Math.max(0, Math.min(MAX_PAGE_ROWS, Math.floor(limit))));
        const rows: PageRow[] = [];
        for (let i = from; i < to; i++) {
          const id = ids[i] as number;
          const match: RowMatch | null = hits ? { field: hits.field[id] === 0 ? 'prompt' : 'response', start: hits.start[id] as number, end: hits.end[id] as number } : null;
          rows.push({ ...table.row(id), match });
        }
        return { offset: from, total: ids.length, rows };
      },
    };
  }
}

function remember<T>(cache: Map<string, T>, key: string, value: T, size: number): void {
  cache.set(key, value);
  while (cache.size > size) cache.delete(cache.keys().next().value as string);
}
