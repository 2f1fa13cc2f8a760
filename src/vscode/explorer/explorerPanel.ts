/**
 * The Rollout Explorer's webview panel: its page, the messages it exchanges with the webview, and
 * the queries it passes on to the analysis worker, which keeps the analysis and answers a page at
 * a time (the extension host holds one page, never the table). Its title is the query's.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { ExplorerQuery } from '../../core/explore/explorerQuery';
import { EXPLORER_PAGE_ROWS, exportRows, isExplorerToHost, query, type ExplorerSubject, type ExplorerToHost, type HostToExplorer, type QueryResult } from '../../protocol/explorer';
import { unhandled } from '../../protocol/messages';
import type { ExportResult } from '../../protocol/panel';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import type { AnalysisStore } from '../analysisStore';
import { PANEL_STYLES, WebviewPanelHost, type PanelDeclaration } from '../webviewPanel';
import { errorText } from '../../core/errorText';
import { SupersededQueries } from './supersededQueries';
import { showError } from '../notify';
import type { RunSplit } from '../../core/run/runLayout';
import type { RunExplorerClient } from '../../scoring/explore/runExplorerClient';
import type { RunReading } from '../../scoring/explore/runRequests';
import type { RunProgressView } from '../../protocol/runExplorer';

/** The Rollout Explorer panel. */
export const EXPLORER_PANEL: PanelDeclaration<ExplorerToHost> = {
  viewType: 'profLens.explorerPanel',
  title: 'Explorer',
  script: ['dist', 'explorerWebview.js'],
  styles: [PANEL_STYLES, ['media', 'explorer.css']],
  receives: isExplorerToHost,
};

/** What the explorer shows: a file (or a run: every step file of it), and a query to start from (null: the saved one). */
export interface ExplorerTarget {
  source: vscode.Uri;
  query: ExplorerQuery | null;
  /** Set for a training run: its folder (or file) and which dumps. */
  run?: RunTarget;
}

export interface RunTarget {
  path: string;
  split: RunSplit;
}

/** A run's URI as the panel names it (what its saved state keeps): the run's folder, marked. */
export function runSource(run: RunTarget): vscode.Uri {
  return vscode.Uri.file(run.path).with({ fragment: run.split === 'validation' ? 'run-validation' : 'run' });
}

/** The run a source URI names, or undefined for a file. */
export function runOfSource(source: vscode.Uri): RunTarget | undefined {
  if (source.scheme !== 'file' || (source.fragment !== 'run' && source.fragment !== 'run-validation')) return undefined;
  return { path: source.fsPath, split: source.fragment === 'run' ? 'train' : 'validation' };
}

export interface ExplorerPanelDeps {
  extensionUri: vscode.Uri;
  store: Pick<AnalysisStore, 'get'>;
  client: Pick<AnalysisClient, 'explore'>;
  reveal: (source: vscode.Uri, rolloutId: number) => Promise<void>;
  /** Runs: read in their own worker, and what they are read with. */
  runs: Pick<RunExplorerClient, 'openRun' | 'explore' | 'close'>;
  runReading: () => Pick<RunReading, 'settings' | 'scorer'>;
}

/** A run the panel has asked the worker to read, and how far it has come. */
interface OpenedRun {
  key: string;
  progress: RunProgressView | null;
  failure: string | null;
  /** Rows shown to the webview last (a new subject is sent when the table grows). */
  shownRows: number;
}


export class ExplorerPanel implements vscode.Disposable {
  private readonly view: WebviewPanelHost<HostToExplorer, ExplorerToHost>;
  private readonly inFlight = new SupersededQueries();
  private opened: OpenedRun | null = null;
  /**
   * The first page of the query a new panel opens with, asked for while its page loads (a new
   * webview takes a second or more to say ready); sent with the first subject, then dropped.
   */
  private first: { query: ExplorerQuery; result: Promise<QueryResult> } | null = null;
  /** Counts subjects, so a first page that arrives after a newer subject is not sent. */
  private subjects = 0;
  readonly onDidDispose: vscode.Event<void>;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private target: ExplorerTarget,
    private readonly deps: ExplorerPanelDeps,
  ) {
    this.view = new WebviewPanelHost(panel, EXPLORER_PANEL, deps.extensionUri, { onReady: () => this.sendSubject(), onMessage: (message) => this.receive(message) });
    this.onDidDispose = this.view.onDidDispose;
    if (!target.run && target.query && deps.store.get(target.source)?.summary) {
      this.first = { query: target.query, result: this.query(target.query, 0, EXPLORER_PAGE_ROWS) };
    }
  }

  get source(): vscode.Uri {
    return this.target.source;
  }

  /** Shows another file or query. */
  show(target: ExplorerTarget): void {
    if (target.source.toString() !== this.target.source.toString()) {
      this.inFlight.reset();
      this.closeRun();
    }
    this.first = null;
    this.target = target;
    this.panel.reveal(undefined, false);
    this.sendSubject();
  }

  /** The analysis changed: the webview asks for its query again. */
  refresh(): void {
    this.inFlight.reset();
    this.first = null;
    this.sendSubject();
  }

  dispose(): void {
    this.inFlight.cancelAll();
    this.closeRun();
    this.view.dispose();
  }

  private closeRun(): void {
    if (this.opened) this.deps.runs.close(this.opened.key);
    this.opened = null;
  }

  /** Starts reading the target's run in the worker (once per run), sending a new subject as its table grows. */
  private openRun(run: RunTarget): OpenedRun {
    const key = this.target.source.toString();
    if (this.opened?.key === key) return this.opened;
    this.closeRun();
    const opened: OpenedRun = { key, progress: null, failure: null, shownRows: -1 };
    this.opened = opened;
    const update = (progress: RunProgressView): void => {
      if (this.opened !== opened) return;
      const grew = progress.rows !== opened.shownRows || progress.done !== opened.progress?.done;
      opened.progress = progress;
      if (grew) this.sendSubject();
    };
    this.deps.runs.openRun(key, { ...run, ...this.deps.runReading() }, update).then(update, (error: unknown) => {
      if (this.opened !== opened) return;
      opened.failure = errorText(error);
      this.sendSubject();
    });
    return opened;
  }

  private sendRunSubject(run: RunTarget): void {
    const { source, query } = this.target;
    const label = `${basename(run.path)} (run${run.split === 'validation' ? ', validation' : ''})`;
    const opened = this.openRun(run);
    const progress = opened.progress;
    this.panel.title = `Explorer · ${label}`;
    if (opened.failure !== null && (progress === null || progress.rows === 0)) return this.post({ type: 'notice', text: `Cannot read the run ${run.path}: ${opened.failure}` });
    if (progress === null || (progress.rows === 0 && !progress.done)) return this.post({ type: 'notice', text: `Reading the step files of ${label}${progress ? ` (${progress.filesRead} of ${progress.files})` : ''}…` });
    if (!this.view.isReady) return;
    opened.shownRows = progress.rows;
    const note = [progress.note, progress.problems.length > 0 ? `${progress.problems.length} file${progress.problems.length === 1 ? '' : 's'} not read: ${progress.problems[0]}` : null].filter((n) => n !== null).join(' · ') || null;
    this.post({ type: 'subject', subject: { source: source.toString(), fileLabel: label, rolloutCount: progress.rows, query, run: { filesRead: progress.filesRead, files: progress.files, done: progress.done, note } } });
    this.target = { ...this.target, query: null };
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
        if (this.opened) void this.openRunRow(this.opened.key, message.rolloutId);
        else void this.deps.reveal(this.target.source, message.rolloutId);
        break;
      case 'export':
        this.view.answer(exportRows, message, () => this.export(message.query, message.ids), (failure): ExportResult => ({ status: 'failed', message: failure }));
        break;
      default:
        unhandled(message);
    }
  }

  private sendSubject(): void {
    const turn = ++this.subjects;
    if (this.target.run) return this.sendRunSubject(this.target.run);
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
    const subject: ExplorerSubject = { source: source.toString(), fileLabel, rolloutCount: analysis.summary.rolloutCount, query };
    // A drill-down's query is sent once; after that the webview's saved query is the one shown.
    this.target = { source, query: null };
    const first = this.first?.query === query ? this.first : null;
    this.first = null;
    if (!first) return this.post({ type: 'subject', subject });
    void first.result.then((result) => {
      if (turn === this.subjects) this.post({ type: 'subject', subject: result.status === 'answered' ? { ...subject, first: result.answer } : subject });
    });
  }

  /** A run's row opens in its step file, at its line. */
  private async openRunRow(key: string, rolloutId: number): Promise<void> {
    try {
      const place = await this.deps.runs.explore(key, { method: 'place', rolloutId });
      const line = Math.max(0, place.line - 1);
      await vscode.window.showTextDocument(vscode.Uri.file(place.file), { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(line, 0, line, 0), preview: false });
    } catch (error) {
      void showError(`PROF Lens: cannot open the rollout: ${errorText(error)}`);
    }
  }

  private async query(query: unknown, offset: number, limit: number): Promise<QueryResult> {
    const epoch = this.inFlight.now;
    try {
      const call = { method: 'query', query, offset, limit } as const;
      const signal = this.inFlight.signalFor(query);
      const answer = this.opened ? await this.deps.runs.explore(this.opened.key, call, signal) : await this.deps.client.explore(this.target.source.toString(), call, signal);
      this.inFlight.answered(epoch);
      this.panel.title = `Explorer · ${answer.title}`;
      return { status: 'answered', answer };
    } catch (error) {
      return { status: 'failed', message: errorText(error) };
    }
  }

  private async export(query: unknown, ids: number[] | null): Promise<ExportResult> {
    if (this.target.run) return { status: 'failed', message: 'a run\'s table is not exported as one file: open a step file in the Explorer and export from it' };
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
