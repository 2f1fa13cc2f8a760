/**
 * The Rollout Explorer's end of its protocol (`src/protocol/explorer.ts`): typed messages,
 * checked on arrival; requests (a page of a query, an export) that each resolve with exactly one
 * response; the saved state.
 */
import {
  EXPLORER_STATE_VERSION,
  exportRows,
  isExplorerState,
  isHostToExplorer,
  query,
  type ExplorerState,
  type ExplorerToHost,
  type HostToExplorer,
  type QueryResult,
} from '../../src/protocol/explorer';
import type { ExportResult } from '../../src/protocol/panel';
import { HostChannel, type Notification } from '../hostChannel';

export class ExplorerChannel {
  private readonly link = new HostChannel<HostToExplorer, ExplorerToHost, ExplorerState>(isHostToExplorer, isExplorerState);

  listen(onMessage: (message: Notification<HostToExplorer>) => void): void {
    this.link.listen(onMessage);
  }

  post(message: ExplorerToHost): void {
    this.link.post(message);
  }

  /** A page of a query's result. */
  query(source: string, asked: unknown, offset: number, limit: number): Promise<QueryResult> {
    return this.link.request(query, { source, query: asked, offset, limit });
  }

  /** Exports `ids` (null: every rollout the query passes). */
  exportRows(source: string, asked: unknown, ids: number[] | null): Promise<ExportResult> {
    return this.link.request(exportRows, { source, query: asked, ids });
  }

  savedState(): ExplorerState | null {
    return this.link.savedState();
  }

  saveState(source: string, asked: unknown): void {
    this.link.saveState({ version: EXPLORER_STATE_VERSION, source, query: asked });
  }
}
