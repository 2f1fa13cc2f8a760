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
import { HostChannel } from '../hostChannel';

type Notification = Exclude<HostToExplorer, { type: 'response' }>;

export class ExplorerChannel {
  private readonly link = new HostChannel<HostToExplorer, ExplorerToHost, QueryResult | ExportResult>(isHostToExplorer);

  listen(onMessage: (message: Notification) => void): void {
    this.link.listen(onMessage);
  }

  post(message: ExplorerToHost): void {
    this.link.post(message);
  }

  /** A page of a query's result. */
  query(source: string, query: unknown, offset: number, limit: number): Promise<QueryResult> {
    return this.link.request((requestId) => ({ type: 'query', requestId, source, query, offset, limit })) as Promise<QueryResult>;
  }

  /** Exports `ids` (null: every rollout the query passes). */
  exportRows(source: string, query: unknown, ids: number[] | null): Promise<ExportResult> {
    return this.link.request((requestId) => ({ type: 'export', requestId, source, query, ids })) as Promise<ExportResult>;
  }

  savedState(): ExplorerState | null {
    const state = this.link.api.getState();
    return isExplorerState(state) ? state : null;
  }

  saveState(source: string, query: unknown): void {
    this.link.api.setState({ version: EXPLORER_STATE_VERSION, source, query } satisfies ExplorerState);
  }
}
