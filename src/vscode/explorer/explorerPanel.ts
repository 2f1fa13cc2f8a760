/**
 * The Rollout Explorer's webview panel: its page, the messages it exchanges with the webview, and
 * the queries it passes on to the analysis worker, which keeps the analysis and answers a page at
 * a time (the extension host holds one page, never the table). Its title is the query's.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { ExplorerQuery } from '../../core/explore/explorerQuery';
import { exportRows, isExplorerToHost, query, type ExplorerToHost, type HostToExplorer, type QueryResult } from '../../protocol/explorer';
import { unhandled } from '../../protocol/messages';
import type { ExportResult } from '../../protocol/panel';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import type { AnalysisStore } from '../analysisStore';
import { PANEL_STYLES, WebviewPanelHost, type PanelDeclaration } from '../webviewPanel';
import { errorText } from '../../core/errorText';
import { SupersededQueries } from './supersededQueries';

/** The Rollout Explorer panel. */
export const EXPLORER_PANEL: PanelDeclaration<ExplorerToHost> = {
  viewType: 'profLens.explorerPanel',
  title: 'Explorer',
  script: ['dist', 'explorerWebview.js'],
  styles: [PANEL_STYLES, ['media', 'explorer.css']],
  receives: isExplorerToHost,
};

/** What the explorer shows: a file, and a query to start from (null: the saved one). */
export interface ExplorerTarget {
  source: vscode.Uri;
  query: ExplorerQuery | null;
}

export interface ExplorerPanelDeps {
  extensionUri: vscode.Uri;
  store: Pick<AnalysisStore, 'get'>;
  client: Pick<AnalysisClient, 'explore'>;
  reveal: (source: vscode.Uri, rolloutId: number) => Promise<void>;
}


export class ExplorerPanel implements vscode.Disposable {
  private readonly view: WebviewPanelHost<HostToExplorer, ExplorerToHost>;
  private readonly inFlight = new SupersededQueries();
  readonly onDidDispose: vscode.Event<void>;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private target: ExplorerTarget,
    private readonly deps: ExplorerPanelDeps,
  ) {
    this.view = new WebviewPanelHost(panel, EXPLORER_PANEL, deps.extensionUri, { onReady: () => this.sendSubject(), onMessage: (message) => this.receive(message) });
    this.onDidDispose = this.view.onDidDispose;
  }

  get source(): vscode.Uri {
    return this.target.source;
  }

  /** Shows another file or query. */
  show(target: ExplorerTarget): void {
    if (target.source.toString() !== this.target.source.toString()) this.inFlight.reset();
    this.target = target;
    this.panel.reveal(undefined, false);
    this.sendSubject();
  }

  /** The analysis changed: the webview asks for its query again. */
  refresh(): void {
    this.inFlight.reset();
    this.sendSubject();
  }

  dispose(): void {
    this.inFlight.cancelAll();
    this.view.dispose();
  }

  private post(message: HostToExplorer): void {
    this.view.post(message);
  }

  private receive(message: Exclude<ExplorerToHost, { type: 'ready' }>): void {
    // The webview shows untrusted text: it may only act on the file this panel shows.
    if (message.source !== this.target.source.toString()) return;
    switch (message.type) {
      case 'query':
        this.view.answer(query, message, () => this.query(message.query, message.offset, message.limit), (failure): QueryResult => ({ status: 'failed', message: failure }));
        break;
      case 'open':
        void this.deps.reveal(this.target.source, message.rolloutId);
        break;
      case 'export':
        this.view.answer(exportRows, message, () => this.export(message.query, message.ids), (failure): ExportResult => ({ status: 'failed', message: failure }));
        break;
      default:
        unhandled(message);
    }
  }

  private sendSubject(): void {
    const { source, query } = this.target;
    const fileLabel = basename(source.path);
    const analysis = this.deps.store.get(source);
    if (!analysis?.summary) {
      this.panel.title = `Explorer · ${fileLabel}`;
      this.post({ type: 'notice', text: analysis ? `Analysing ${fileLabel}…` : `${fileLabel} is not analysed: open it in the editor first.` });
      return;
    }
    // Before the webview's `ready` a message is lost: the subject (and its query) goes when it says ready.
    if (!this.view.isReady) return;
    this.post({ type: 'subject', subject: { source: source.toString(), fileLabel, rolloutCount: analysis.summary.rolloutCount, query } });
    // A drill-down's query is sent once; after that the webview's saved query is the one shown.
    this.target = { source, query: null };
  }

  private async query(query: unknown, offset: number, limit: number): Promise<QueryResult> {
    const epoch = this.inFlight.now;
    try {
      const answer = await this.deps.client.explore(this.target.source.toString(), { method: 'query', query, offset, limit }, this.inFlight.signalFor(query));
      this.inFlight.answered(epoch);
      this.panel.title = `Explorer · ${answer.title}`;
      return { status: 'answered', answer };
    } catch (error) {
      return { status: 'failed', message: errorText(error) };
    }
  }

  private async export(query: unknown, ids: number[] | null): Promise<ExportResult> {
    const { source } = this.target;
    const analysis = this.deps.store.get(source);
    if (!analysis?.summary) return { status: 'failed', message: 'the file has not been analysed yet' };
    if (source.scheme !== 'file') return { status: 'failed', message: 'only a file saved on disk can be exported from (save it first)' };
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === source.toString());
    if (analysis.version !== -1 && document && (document.isDirty || document.version !== analysis.version)) {
      return { status: 'failed', message: 'the file has unsaved changes or changed since it was analysed: save it and try again when the analysis has caught up' };
    }
    const target = await vscode.window.showSaveDialog({
      defaultUri: source.with({ path: source.path.replace(/\.[^./]*$/, '') + '.selection.jsonl' }),
      filters: { 'JSON Lines': ['jsonl'] },
      title: 'Save the selected rollouts',
    });
    if (!target) return { status: 'cancelled' };
    if (target.scheme !== 'file') return { status: 'failed', message: 'the selection is written to a file on disk' };
    const written = await this.deps.client.explore(source.toString(), { method: 'export', query, ids, input: source.fsPath, output: target.fsPath });
    return { status: 'saved', path: target.fsPath, lines: written.lines };
  }
}
