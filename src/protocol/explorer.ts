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
import type { ExportResult } from './panel';

/** Rows a view asks for at once (the engine sends at most 500). */
export const EXPLORER_PAGE_ROWS = 200;

/** What the host asks the worker about a kept analysis. */
export type ExplorerCall =
  | { method: 'query'; query: unknown; offset: number; limit: number }
  | { method: 'export'; query: unknown; ids: number[] | null; input: string; output: string }
  | { method: 'compare'; other: string }
  | { method: 'promptSides'; other: string; index: number };

/** A query answered: the canonical query, its title, one page, and the page's highlights when it searches. */
export interface QueryAnswer {
  method: 'query';
  query: ExplorerQuery;
  title: string;
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
  | { method: 'promptSides'; sides: PromptSides };

/** Host → worker. */
export interface ExploreRequest {
  type: 'explore';
  requestId: number;
  documentKey: string;
  call: ExplorerCall;
}

/** Worker → host: the one answer of an `explore` request (or a `failed`). */
export interface ExploredMessage {
  type: 'explored';
  requestId: number;
  answer: ExplorerAnswer;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isIdList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every(isCount);
}

export function isExplorerCall(value: unknown): value is ExplorerCall {
  if (!isRecord(value)) return false;
  switch (value['method']) {
    case 'query':
      return isCount(value['offset']) && isCount(value['limit']);
    case 'export':
      return (value['ids'] === null || isIdList(value['ids'])) && typeof value['input'] === 'string' && typeof value['output'] === 'string';
    case 'compare':
      return typeof value['other'] === 'string';
    case 'promptSides':
      return typeof value['other'] === 'string' && isCount(value['index']);
    default:
      return false;
  }
}

export function isExplorerAnswer(value: unknown): value is ExplorerAnswer {
  if (!isRecord(value)) return false;
  switch (value['method']) {
    case 'query':
      return isRecord(value['query']) && typeof value['title'] === 'string' && isRecord(value['page']) && Array.isArray((value['page'] as Record<string, unknown>)['rows']);
    case 'export':
      return isCount(value['lines']) && isCount(value['rollouts']);
    case 'compare':
      return isRecord(value['comparison']) && Array.isArray((value['comparison'] as Record<string, unknown>)['prompts']);
    case 'promptSides':
      return isRecord(value['sides']) && Array.isArray((value['sides'] as Record<string, unknown>)['a']);
    default:
      return false;
  }
}

/* ---- host ↔ explorer webview ---- */

/** What the explorer shows first: the file, and the query to start from (a drill-down's, or the saved one). */
export interface ExplorerSubject {
  source: string;
  fileLabel: string;
  /** Rows of the file; the query's total may be fewer. */
  rolloutCount: number;
  /** The query to run now; null: the webview's saved one (or every rollout). */
  query: ExplorerQuery | null;
}

export type QueryResult = { status: 'answered'; answer: QueryAnswer } | { status: 'failed'; message: string };

export type HostToExplorer =
  | { type: 'subject'; subject: ExplorerSubject }
  | { type: 'notice'; text: string }
  | { type: 'response'; requestId: number; method: 'query'; result: QueryResult }
  | { type: 'response'; requestId: number; method: 'export'; result: ExportResult };

export type ExplorerToHost =
  | { type: 'ready' }
  | { type: 'query'; requestId: number; source: string; query: unknown; offset: number; limit: number }
  | { type: 'open'; source: string; rolloutId: number }
  | { type: 'export'; requestId: number; source: string; query: unknown; ids: number[] | null };

/** Version of the explorer's saved state; another version is ignored. */
export const EXPLORER_STATE_VERSION = 1;

/** What the explorer remembers across reloads: its file and its query (filters, search, sort). */
export interface ExplorerState {
  version: typeof EXPLORER_STATE_VERSION;
  source: string;
  query: unknown;
}

export function isExplorerToHost(value: unknown): value is ExplorerToHost {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'ready':
      return true;
    case 'query':
      return isCount(value['requestId']) && typeof value['source'] === 'string' && isCount(value['offset']) && isCount(value['limit']);
    case 'open':
      return typeof value['source'] === 'string' && isCount(value['rolloutId']);
    case 'export':
      return isCount(value['requestId']) && typeof value['source'] === 'string' && (value['ids'] === null || isIdList(value['ids']));
    default:
      return false;
  }
}

export function isHostToExplorer(value: unknown): value is HostToExplorer {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'subject': {
      const s = value['subject'];
      return isRecord(s) && typeof s['source'] === 'string' && typeof s['fileLabel'] === 'string' && isCount(s['rolloutCount']) && (s['query'] === null || isRecord(s['query']));
    }
    case 'notice':
      return typeof value['text'] === 'string';
    case 'response': {
      const result = value['result'];
      if (!isCount(value['requestId']) || !isRecord(result)) return false;
      if (value['method'] === 'query') return (result['status'] === 'answered' && isExplorerAnswer(result['answer'])) || (result['status'] === 'failed' && typeof result['message'] === 'string');
      return value['method'] === 'export' && typeof result['status'] === 'string';
    }
    default:
      return false;
  }
}

export function isExplorerState(value: unknown): value is ExplorerState {
  return isRecord(value) && value['version'] === EXPLORER_STATE_VERSION && typeof value['source'] === 'string' && 'query' in value;
}

/* ---- host ↔ compare webview ---- */

export interface CompareSubject {
  a: string;
  b: string;
  labelA: string;
  labelB: string;
  comparison: ComparisonView;
}

export type HostToCompare =
  | { type: 'comparison'; subject: CompareSubject }
  | { type: 'notice'; text: string }
  | { type: 'sides'; index: number; sides: PromptSides }
  | { type: 'sidesFailed'; index: number; message: string };

export type CompareToHost =
  | { type: 'ready' }
  | { type: 'showPrompt'; index: number }
  | { type: 'open'; side: 'a' | 'b'; rolloutId: number };

export function isCompareToHost(value: unknown): value is CompareToHost {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'ready':
      return true;
    case 'showPrompt':
      return isCount(value['index']);
    case 'open':
      return (value['side'] === 'a' || value['side'] === 'b') && isCount(value['rolloutId']);
    default:
      return false;
  }
}

export function isHostToCompare(value: unknown): value is HostToCompare {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'comparison': {
      const s = value['subject'];
      return isRecord(s) && typeof s['labelA'] === 'string' && typeof s['labelB'] === 'string' && isRecord(s['comparison']) && Array.isArray((s['comparison'] as Record<string, unknown>)['prompts']);
    }
    case 'notice':
      return typeof value['text'] === 'string';
    case 'sides':
      return isCount(value['index']) && isRecord(value['sides']) && Array.isArray((value['sides'] as Record<string, unknown>)['a']) && Array.isArray((value['sides'] as Record<string, unknown>)['b']);
    case 'sidesFailed':
      return isCount(value['index']) && typeof value['message'] === 'string';
    default:
      return false;
  }
}
