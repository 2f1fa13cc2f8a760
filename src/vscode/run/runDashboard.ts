/**
 * The Run Dashboard: one webview showing one or more training runs over their steps. Its page has
 * the panels' strict CSP with a fresh nonce; runs arrive as messages. Each run is a RunSession
 * (summarised off this thread, watched); when one changes, only that run is sent again, at most a
 * few times a second, and the webview redraws its charts in place.
 */
import * as vscode from 'vscode';
import { PARQUET_EDITOR_VIEW_TYPE } from '../panel/panelFeature';
import { isRunWebviewToHost, type HostToRunWebview, type RunDashboardData, type RunWebviewToHost } from '../../protocol/run';
import { unhandled } from '../../protocol/messages';
import type { RunTrackerDeps } from '../../scoring/run/runTracker';
import { showError } from '../notify';
import { PANEL_STYLES, WebviewPanelHost, type PanelDeclaration } from '../webviewPanel';
import { RunSession } from './runSession';
import { runLabels, runView } from './runViewData';
import { chartQuery } from '../../core/explore/chartQueries';
import { commandIds } from '../commandIds';
import type { SidebarRun } from '../sidebar/sidebarModel';
import { errorText } from '../../core/errorText';
import { RunHealthAudit, type RunHealthDeps } from './runHealth';

/** The Run Dashboard panel. */
export const RUN_DASHBOARD_PANEL: PanelDeclaration<RunWebviewToHost> = {
  viewType: 'profLens.runDashboard',
  title: 'PROF runs',
  script: ['dist', 'runWebview.js'],
  styles: [PANEL_STYLES, ['media', 'run.css'], ['media', 'runHealth.css']],
  receives: isRunWebviewToHost,
};

/** What the dashboard needs from the extension. */
export interface RunDashboardDeps {
  extensionUri: vscode.Uri;
  /** How runs are summarised now (settings, scorer, workers, cache). */
  trackerDeps: () => RunTrackerDeps;
  /** What the charts label: settings and the scorer in words. */
  describe: () => Pick<RunDashboardData, 'settings' | 'scorerLabel'>;
  /** Asks the user for another run (a folder). */
  pickRun: () => Promise<vscode.Uri | undefined>;
  /** Opens a file too large for the editor to share with extensions: read from disk, shown in the file dashboard. */
  openLargeFile: (uri: vscode.Uri) => Promise<void>;
  /** What the health audit grades and scores with. */
  healthOptions: RunHealthDeps['options'];
  /** Where the health audit runs (off the extension host's thread). */
  auditor: RunHealthDeps['auditor'];
}

/** The editor does not hand files above this size to extensions (docs/platform-limits.md §Files over 50 MB). */
const LARGEST_SHARED_FILE = 50 * 1024 * 1024;

/** Runs are sent at most this often while they are being summarised. */
const SEND_INTERVAL_MS = 250;

export class RunDashboard implements vscode.Disposable {
  private readonly sessions = new Map<string, RunSession>();
  private readonly audits = new Map<string, RunHealthAudit>();
  private readonly view: WebviewPanelHost<HostToRunWebview, RunWebviewToHost>;
  private readonly dirty = new Set<string>();
  private sendTimer: ReturnType<typeof setTimeout> | undefined;
  readonly onDidDispose: vscode.Event<void>;
  private readonly runsChanged = new vscode.EventEmitter<void>();
  /** A run was added or removed, or its summaries changed (at most every SEND_INTERVAL_MS). */
  readonly onDidChangeRuns = this.runsChanged.event;

  constructor(readonly panel: vscode.WebviewPanel, private readonly deps: RunDashboardDeps) {
    this.view = new WebviewPanelHost(panel, RUN_DASHBOARD_PANEL, deps.extensionUri, { onReady: () => this.sendAll(), onMessage: (message) => this.handle(message) });
    // Closing the panel ends its runs' sessions.
    this.onDidDispose = this.view.onDidDispose;
    this.view.onDidDispose(() => this.dispose());
  }

  /** Shows a run (again): a run already on the dashboard is not read twice. */
  add(uri: vscode.Uri): void {
    this.panel.reveal(undefined, true);
    const id = uri.toString();
    if (this.sessions.has(id)) return;
    const session = new RunSession(uri, this.deps.trackerDeps());
    this.sessions.set(id, session);
    const audit = new RunHealthAudit(id, session.tracker, { options: this.deps.healthOptions, auditor: this.deps.auditor, send: (health) => this.view.isReady && this.post({ type: 'health', health }) });
    this.audits.set(id, audit);
    session.tracker.onDidChange(() => {
      this.changed(id);
      audit.changed();
    });
    audit.changed();
    this.updateTitle();
    session.start().catch((error: unknown) => {
      void showError(`PROF Lens: cannot open the training run ${uri.fsPath}: ${errorText(error)}`);
      this.remove(id);
    });
    this.changed(id);
  }

  /** The runs and their steps as the sidebar lists them. */
  sidebarRuns(): SidebarRun[] {
    const labels = this.labels();
    return this.runIds.map((runId) => {
      const tracker = this.sessions.get(runId)!.tracker;
      const progress = tracker.progress;
      const steps = tracker.summary().steps.map((s) => {
        const file = s.sources[0]?.file ?? null;
        return { step: s.step, rollouts: s.rollouts, accuracy: s.accuracy, suspectedFalsePositives: s.suspectedFalsePositives, file, source: file === null ? null : vscode.Uri.file(file).toString() };
      });
      return { runId, label: labels.get(runId) ?? runId, steps, pending: progress ? Math.max(0, progress.filesTotal - progress.filesDone) : 0 };
    });
  }

  /** The runs shown, by URI. */
  get runIds(): string[] {
    return [...this.sessions.keys()];
  }

  /** Settings or the scorer changed: every run is summarised again under them. */
  restartAll(): void {
    for (const session of this.sessions.values()) void session.tracker.restart(this.deps.trackerDeps());
    this.sendAll();
  }

  dispose(): void {
    clearTimeout(this.sendTimer);
    for (const session of this.sessions.values()) session.dispose();
    this.sessions.clear();
    for (const audit of this.audits.values()) audit.dispose();
    this.audits.clear();
    this.runsChanged.fire();
    this.runsChanged.dispose();
    this.view.dispose();
  }

  private handle(message: Exclude<RunWebviewToHost, { type: 'ready' }>): void {
    switch (message.type) {
      case 'openStep':
        void this.openStep(message.runId, message.step);
        break;
      case 'exploreStep':
        this.exploreStep(message.runId, message.step, message.chart);
        break;
      case 'exploreHealth': {
        const target = this.audits.get(message.runId)?.explore(message.step, message.detector);
        if (target) void vscode.commands.executeCommand(commandIds.openExplorer, target);
        break;
      }
      case 'addRun':
        void this.deps.pickRun().then((uri) => uri && this.add(uri));
        break;
      case 'removeRun':
        this.remove(message.runId);
        break;
      case 'exploreRun': {
        const session = this.sessions.get(message.runId);
        if (session) void vscode.commands.executeCommand(commandIds.openRunExplorer, { run: session.tracker.path, split: session.tracker.split });
        break;
      }
      default:
        unhandled(message);
    }
  }

  private remove(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    session.dispose();
    this.sessions.delete(id);
    this.audits.get(id)?.dispose();
    this.audits.delete(id);
    this.updateTitle();
    this.post({ type: 'removed', runId: id });
    this.runsChanged.fire();
    // Labels may get shorter once a namesake is gone.
    this.sendAll();
  }

  private labels(): Map<string, string> {
    const ids = this.runIds;
    const labels = runLabels(ids.map((id) => this.sessions.get(id)!.tracker.path));
    return new Map(ids.map((id, i) => [id, `${labels[i]!}${this.sessions.get(id)!.tracker.split === 'validation' ? ' (validation)' : ''}`]));
  }

  private viewOf(id: string, label: string): ReturnType<typeof runView> | null {
    const session = this.sessions.get(id);
    if (!session) return null;
    const p = session.tracker.progress;
    return runView({ id, label, summary: session.tracker.summary(), progress: p ? { filesDone: p.filesDone, filesTotal: p.filesTotal } : null, modelError: session.tracker.modelError });
  }

  private sendAll(): void {
    if (!this.view.isReady) return;
    const labels = this.labels();
    const runs = this.runIds.flatMap((id) => this.viewOf(id, labels.get(id)!) ?? []);
    this.post({ type: 'dashboard', data: { runs, ...this.deps.describe() } });
    for (const audit of this.audits.values()) this.post({ type: 'health', health: audit.view });
  }

  private changed(id: string): void {
    this.dirty.add(id);
    if (this.sendTimer !== undefined) return;
    this.sendTimer = setTimeout(() => {
      this.sendTimer = undefined;
      this.runsChanged.fire();
      if (!this.view.isReady) return;
      const labels = this.labels();
      for (const dirtyId of this.dirty) {
        const view = this.viewOf(dirtyId, labels.get(dirtyId) ?? '');
        if (view) this.post({ type: 'run', run: view });
      }
      this.dirty.clear();
    }, SEND_INTERVAL_MS);
  }

  private updateTitle(): void {
    const labels = [...this.labels().values()];
    this.panel.title = labels.length ? `PROF runs · ${labels.join(', ')}` : 'PROF runs';
  }

  /** Opens the file a step's rollouts are in, at the step's first record, in the editor with every PROF Lens feature. */
  async openStep(id: string, step: number): Promise<void> {
    const source = this.sessions.get(id)?.tracker.summary().steps.find((s) => s.step === step)?.sources[0];
    if (!source) return;
    const uri = vscode.Uri.file(source.file);
    const size = (await vscode.workspace.fs.stat(uri).then((s) => s.size, () => 0));
    if (size > LARGEST_SHARED_FILE) return this.deps.openLargeFile(uri);
    // A parquet step (TRL's completions) is no text document: its dashboard opens in the editor.
    if (/\.parquet$/i.test(uri.fsPath)) return void (await vscode.commands.executeCommand('vscode.openWith', uri, PARQUET_EDITOR_VIEW_TYPE));
    const position = new vscode.Position(Math.max(0, source.line - 1), 0);
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(document, { preview: false, viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(position, position) });
    } catch (error) {
      void showError(`PROF Lens: cannot open step ${step}'s file ${uri.fsPath}: ${errorText(error)}`);
    }
  }

  /** Opens a step's file in the Rollout Explorer with the chart's meaning as its query. */
  private exploreStep(id: string, step: number, chart: string): void {
    const source = this.sessions.get(id)?.tracker.summary().steps.find((s) => s.step === step)?.sources[0];
    if (!source) return;
    void vscode.commands.executeCommand(commandIds.openExplorer, { source: vscode.Uri.file(source.file).toString(), query: chartQuery(chart) });
  }

  private post(message: HostToRunWebview): void {
    this.view.post(message);
  }
}
