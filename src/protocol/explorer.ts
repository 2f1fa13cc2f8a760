/**
 * Messages of the Rollout Explorer and the Compare view: between the extension host and the
 * analysis worker (which keeps the analyses the queries run over), and between the host and the
 * two webviews. JSON-plain, discriminated on `type`. Webview requests carry an id and get exactly
 * one response; every message is checked on arrival by the guards below.
 */
import type { ExplorerPage, RowHighlights } from '../core/explore/explorerEngine';
import type { ExplorerQuery } from '../core/explore/explorerQuery';
import type { Comparison, PromptComparison } from '../core/compare/comparison';
import type { PromptSides } from '../core/compare/promptSides';
import type { RulesFigures } from '../core/rules/compareRules';
import type { RuleParams } from '../core/rules/rule';
import { isExportResult } from './panel';
import { arrayOf, either, isArray, isCount, isRecord, isString, isUnknown, literal, nullable, optional, outline, shape, type Guard, type Guarded } from './guards';
import { message, protocol, ready, request, savedState, viewRequest, type Sent } from './messages';

/** Rows a view asks for at once: a tall panel's screenful and its margin (the engine sends at most 500). */
export const EXPLORER_PAGE_ROWS = 64;

const isIdList = arrayOf(isCount);

/** What the host asks the worker about a kept analysis (the query is checked by its own parser). */
export const isExplorerCall = either(
  either(
    either(shape({ method: literal('query'), query: isUnknown, offset: isCount, limit: isCount }), shape({ method: literal('export'), query: isUnknown, ids: nullable(isIdList), input: isString, output: isString })),
    either(either(shape({ method: literal('compare'), other: isString }), shape({ method: literal('promptSides'), other: isString, index: isCount })), shape({ method: literal('place'), rolloutId: isCount })),
  ),
  /** Every curation rule side by side, each with the parameters given (`params`: rule → its parameters). */
  shape({ method: literal('rules'), params: isRecord as Guard<Record<string, RuleParams>> }),
);
export type ExplorerCall = Guarded<typeof isExplorerCall>;

/** A query answered: the canonical query, its title, one page, and the page's highlights when it searches. */
export interface QueryAnswer {
  method: 'query';
  query: ExplorerQuery;
  title: string;
  /** The title with nothing shortened (a kept group's whole name and its id). */
  tooltip?: string;
  page: ExplorerPage;
  highlights: RowHighlights[] | null;
  rewardColumns: string[];
}

/** A comparison as the view lists it: without the rollout ids (the worker keeps them). */
export type ComparisonView = Omit<Comparison, 'prompts'> & { prompts: Omit<PromptComparison, 'rowsA' | 'rowsB'>[] };

export type ExplorerAnswer =
  | QueryAnswer
  | { method: 'export'; lines: number; rollouts: number }
  | { method: 'compare'; comparison: ComparisonView }
  | { method: 'promptSides'; sides: PromptSides }
  /** Where a run's row is: its step file and 1-based line. */
  | { method: 'place'; file: string; line: number }
  | { method: 'rules'; figures: RulesFigures };

const isQueryAnswer = outline<QueryAnswer>({ method: literal('query'), query: isRecord, title: isString, page: outline<ExplorerPage>({ rows: isArray }) });

/** What the worker answers (figures checked for their outline: the worker built them). */
export const isExplorerAnswer: Guard<ExplorerAnswer> = either(
  either(
    either(isQueryAnswer, shape({ method: literal('export'), lines: isCount, rollouts: isCount })),
    either(either(shape({ method: literal('compare'), comparison: outline<ComparisonView>({ prompts: isArray }) }), shape({ method: literal('promptSides'), sides: outline<PromptSides>({ a: isArray }) })), shape({ method: literal('place'), file: isString, line: isCount })),
  ),
  shape({ method: literal('rules'), figures: outline<RulesFigures>({ rules: isArray, overlaps: isArray }) }),
);

/* ---- host ↔ explorer webview ---- */

/** What the explorer shows first: the file, and the query to start from (a drill-down's, or the saved one). */
export interface ExplorerSubject {
  source: string;
  fileLabel: string;
  /** Rows of the file; the query's total may be fewer. */
  rolloutCount: number;
  /** The query to run now; null: the webview's saved one (or every rollout). */
  query: ExplorerQuery | null;
  /**
   * The first page of `query`, already answered: a new panel's query is run while its page loads,
   * so the rows come with the subject instead of a request after it.
   */
  first?: QueryAnswer;
  /** A training run's steps as one table (a step column, a health filter), and how far its reading has come. */
  run?: { filesRead: number; files: number; done: boolean; note: string | null };
}

export type QueryResult = { status: 'answered'; answer: QueryAnswer } | { status: 'failed'; message: string };

const isQueryResult: Guard<QueryResult> = either(shape({ status: literal('answered'), answer: isQueryAnswer }), shape({ status: literal('failed'), message: isString }));

/** A page of a query's result. */
export const query = viewRequest('query', { source: isString, query: isUnknown, offset: isCount, limit: isCount }, isQueryResult);
/** Put the cursor on a rollout in its file. */
export const open = message('toHost', 'open', { source: isString, rolloutId: isCount });
/** Export `ids` (null: every rollout the query passes). */
export const exportRows = viewRequest('export', { source: isString, query: isUnknown, ids: nullable(isIdList) }, isExportResult);

/** What the explorer shows first: the file, and the query to start from. */
export const subject = message('fromHost', 'subject', {
  subject: outline<ExplorerSubject>({ source: isString, fileLabel: isString, rolloutCount: isCount, query: nullable(isRecord), first: optional(isQueryAnswer) }),
});
/** The host has nothing to show yet (the file is being analysed, or is not). */
export const textNotice = message('fromHost', 'notice', { text: isString });

/** The Rollout Explorer's channel. */
export const explorerProtocol = protocol(ready, query, open, exportRows, subject, textNotice);
export type HostToExplorer = Sent<typeof explorerProtocol, 'fromHost'>;
export type ExplorerToHost = Sent<typeof explorerProtocol, 'toHost'>;
export const isHostToExplorer = explorerProtocol.guard('fromHost');
export const isExplorerToHost = explorerProtocol.guard('toHost');

/** Version of the explorer's saved state; another version is ignored. */
export const EXPLORER_STATE_VERSION = 1;

/** What the explorer remembers across reloads: its file and its query (filters, search, sort). */
export const isExplorerState = savedState(EXPLORER_STATE_VERSION, { source: isString, query: isUnknown });
export type ExplorerState = Guarded<typeof isExplorerState>;

/** Version of the Compare view's saved state; another version is ignored. */
export const COMPARE_STATE_VERSION = 1;

/** What the Compare view remembers across reloads: the two files it compares (compared again on restore). */
export const isCompareState = savedState(COMPARE_STATE_VERSION, { a: isString, b: isString });
export type CompareState = Guarded<typeof isCompareState>;

/* ---- host ↔ compare webview ---- */

export interface CompareSubject {
  a: string;
  b: string;
  labelA: string;
  labelB: string;
  comparison: ComparisonView;
}

export const comparison = message('fromHost', 'comparison', {
  subject: outline<CompareSubject>({ labelA: isString, labelB: isString, comparison: outline<ComparisonView>({ prompts: isArray }) }),
});
export const sides = message('fromHost', 'sides', { index: isCount, sides: outline<PromptSides>({ a: isArray, b: isArray }) });
export const sidesFailed = message('fromHost', 'sidesFailed', { index: isCount, message: isString });
/** Show a prompt's rollouts side by side: answered by its `sides`, or why they could not be read. */
export const showPrompt = request('toHost', 'showPrompt', { index: isCount }, { replies: [sides, sidesFailed] });
export const openSide = message('toHost', 'open', { side: literal('a', 'b'), rolloutId: isCount });

/** The Compare view's channel. */
export const compareProtocol = protocol(ready, showPrompt, openSide, comparison, textNotice);
export type HostToCompare = Sent<typeof compareProtocol, 'fromHost'>;
export type CompareToHost = Sent<typeof compareProtocol, 'toHost'>;
export const isHostToCompare = compareProtocol.guard('fromHost');
export const isCompareToHost = compareProtocol.guard('toHost');
