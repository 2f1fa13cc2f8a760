/**
 * The Rollout Explorer's webview panel: its page, the messages it exchanges with the webview, and
 * the queries it passes on to the analysis worker, which keeps the analysis and answers a page at
 * a time (the extension host holds one page, never the table). Its title is the query's.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { ExplorerQuery } from '../../core/explore/explorerQuery';
import { isExplorerToHost, type ExplorerToHost, type HostToExplorer, type QueryResult } from '../../protocol/explorer';
import type { ExportResult } from '../../protocol/panel';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import type { AnalysisStore } from '../analysisStore';
import { webviewOptions } from '../panel/panelHost';
import { loadPanelPage } from '../panel/panelPage';

/** The explorer's webview type (serializer and activation event). */
export const EXPLORER_VIEW_TYPE = 'profLens.explorerPanel';

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

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class ExplorerPanel implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;
  private isDisposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private target: ExplorerTarget,
    private readonly deps: ExplorerPanelDeps,
  ) {
    panel.webview.options = webviewOptions(deps.extensionUri);
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'gutter-kept.svg');
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      panel.onDidDispose(() => this.dispose()),
    );
    loadPanelPage(panel, { extensionUri: deps.extensionUri, script: ['dist', 'explorerWebview.js'], styles: [['media', 'panel.css'], ['media', 'explorer.css']] });
  }

  get source(): vscode.Uri {
    return this.target.source;
  }

  /** Shows another file or query. */
  show(target: ExplorerTarget): void {
    this.target = target;
    this.panel.reveal(undefined, false);
    this.sendSubject();
  }

  /** The analysis changed: the webview asks for its query again. */
  refresh(): void {
    this.sendSubject();
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.panel.dispose();
    this.disposed.fire();
    this.disposed.dispose();
  }

  private post(message: HostToExplorer): void {
    void this.panel.webview.postMessage(message);
  }

  private receive(message: unknown): void {
    if (!isExplorerToHost(message)) return;
    // The webview shows untrusted text: it may only act on the file this panel shows.
    if (message.type !== 'ready' && message.source !== this.target.source.toString()) return;
    this.handle(message);
  }

  private handle(message: ExplorerToHost): void {
    switch (message.type) {
      case 'ready':
        this.sendSubject();
        break;
      case 'query':
        void this.query(message.query, message.offset, message.limit).then((result) => this.post({ type: 'response', requestId: message.requestId, method: 'query', result }));
        break;
      case 'open':
        void this.deps.reveal(this.target.source, message.rolloutId);
        break;
      case 'export':
        void this.export(message.query, message.ids)
          .catch((error: unknown): ExportResult => ({ status: 'failed', message: describe(error) }))
          .then((result) => this.post({ type: 'response', requestId: message.requestId, method: 'export', result }));
        break;
      default: {
        const unexpected: never = message;
        void unexpected;
      }
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
    this.post({ type: 'subject', subject: { source: source.toString(), fileLabel, rolloutCount: analysis.summary.rolloutCount, query } });
    // A drill-down's query is sent once; after that the webview's saved query is the one shown.
    this.target = { source, query: null };
  }

  private async query(query: unknown, offset: number, limit: number): Promise<QueryResult> {
    try {
      const answer = await this.deps.client.explore(this.target.source.toString(), { method: 'query', query, offset, limit });
      this.panel.title = `Explorer · ${answer.title}`;
      return { status: 'answered', answer };
    } catch (error) {
      return { status: 'failed', message: describe(error) };
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
