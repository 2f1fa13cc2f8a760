/**
 * The Rollout Explorer's end of its protocol: typed messages, checked on arrival; requests (a
 * page of a query, an export) that each resolve with exactly one response; the saved state.
 */
import {
  EXPLORER_STATE_VERSION,
  isExplorerState,
  isHostToExplorer,
  type ExplorerState,
  type ExplorerToHost,
  type HostToExplorer,
  type QueryResult,
} from '../../src/protocol/explorer';
import type { ExportResult } from '../../src/protocol/panel';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

type Notification = Exclude<HostToExplorer, { type: 'response' }>;

export class ExplorerChannel {
  private readonly api = acquireVsCodeApi();
  private readonly pending = new Map<number, (result: QueryResult | ExportResult) => void>();
  private nextRequestId = 1;

  listen(onMessage: (message: Notification) => void): void {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      const message = event.data;
      if (!isHostToExplorer(message)) return;
      if (message.type === 'response') {
        const resolve = this.pending.get(message.requestId);
        this.pending.delete(message.requestId);
        resolve?.(message.result);
        return;
      }
      onMessage(message);
    });
  }

  post(message: ExplorerToHost): void {
    this.api.postMessage(message);
  }

  /** A page of a query's result. */
  query(source: string, query: unknown, offset: number, limit: number): Promise<QueryResult> {
    return this.request((requestId) => ({ type: 'query', requestId, source, query, offset, limit })) as Promise<QueryResult>;
  }

  /** Exports `ids` (null: every rollout the query passes). */
  exportRows(source: string, query: unknown, ids: number[] | null): Promise<ExportResult> {
    return this.request((requestId) => ({ type: 'export', requestId, source, query, ids })) as Promise<ExportResult>;
  }

  savedState(): ExplorerState | null {
    const state = this.api.getState();
    return isExplorerState(state) ? state : null;
  }

  saveState(source: string, query: unknown): void {
    this.api.setState({ version: EXPLORER_STATE_VERSION, source, query } satisfies ExplorerState);
  }

  private request(build: (requestId: number) => ExplorerToHost): Promise<QueryResult | ExportResult> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve) => {
      this.pending.set(requestId, resolve);
      this.post(build(requestId));
    });
  }
}
