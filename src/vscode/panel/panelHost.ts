/**
 * One PROF panel (the group view or the file dashboard) in a webview: its page with a fresh
 * nonce on every load, the messages it exchanges with the webview, and the data it sends. The
 * webview is rebuilt when it is shown again (no retained context); its `ready` asks for the data.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { isWebviewToHost, type ExportResult, type HostToWebview, type WebviewToHost } from '../../protocol/panel';
import type { PanelLabels } from '../labels/panelLabels';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import type { AnalysisStore } from '../analysisStore';
import { runExport } from './exportActions';
import { dashboardData, groupData, groupLabels } from './panelData';
import { loadPanelPage } from './panelPage';

/** The two panels. */
export type PanelKind = 'group' | 'dashboard';

/** The panels' webview types (the serializers and `onWebviewPanel:` activation events use them). */
export const PANEL_VIEW_TYPES: Record<PanelKind, string> = {
  group: 'profLens.groupPanel',
  dashboard: 'profLens.dashboardPanel',
};

/** What a panel shows: a file, and for the group view one of the group's rollouts. */
export interface PanelTarget {
  source: vscode.Uri;
  rolloutId: number | null;
}

/** What a panel needs from the rest of the extension. */
export interface PanelHostDeps {
  extensionUri: vscode.Uri;
  store: Pick<AnalysisStore, 'get'>;
  client: Pick<AnalysisClient, 'details'>;
  reveal: (source: vscode.Uri, rolloutId: number) => Promise<void>;
  /** Opens the other panel (from the group view's dashboard button or a dashboard link). */
  open: (kind: PanelKind, target: PanelTarget) => void;
  /** The user's labels: badges, the dashboard's figures and the label buttons; absent: no labels shown. */
  labels?: PanelLabels;
}

/** The folders a panel may load from: the extension's media and dist, and KaTeX's stylesheet and fonts. */
export function resourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [
    vscode.Uri.joinPath(extensionUri, 'media'),
    vscode.Uri.joinPath(extensionUri, 'dist'),
    vscode.Uri.joinPath(extensionUri, 'node_modules', 'katex', 'dist'),
  ];
}

/** Webview options shared by new and restored panels: scripts on, nothing else reachable. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, enableForms: false, localResourceRoots: resourceRoots(extensionUri) };
}

/** A live panel. */
export class PanelHost implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly disposed = new vscode.EventEmitter<void>();
  /** Fires once, when the user closes the panel or it is disposed. */
  readonly onDidDispose = this.disposed.event;
  /** Counts sends so that a slow detail fetch does not overwrite a newer view. */
  private sequence = 0;
  private groupKey: string | null = null;
  private isDisposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly kind: PanelKind,
    private target: PanelTarget,
    private readonly deps: PanelHostDeps,
  ) {
    panel.webview.options = webviewOptions(deps.extensionUri);
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'gutter-kept.svg');
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      panel.onDidDispose(() => this.dispose()),
    );
    this.load();
  }

  /** The file the panel shows. */
  get source(): vscode.Uri {
    return this.target.source;
  }

  /** The group key currently shown (group view), once sent. */
  get shownGroup(): string | null {
    return this.groupKey;
  }

  /** Shows another target (or the same one again, e.g. after a re-analysis). */
  show(target: PanelTarget, reveal = true): void {
    this.target = target;
    if (reveal) this.panel.reveal(undefined, true);
    void this.send();
  }

  /** Sends the data again: the analysis changed. */
  refresh(): void {
    void this.send();
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.panel.dispose();
    this.disposed.fire();
    this.disposed.dispose();
  }

  private load(): void {
    loadPanelPage(this.panel, {
      extensionUri: this.deps.extensionUri,
      script: ['dist', 'webview.js'],
      styles: [['node_modules', 'katex', 'dist', 'katex.min.css'], ['media', 'panel.css']],
    });
  }

  private post(message: HostToWebview): void {
    void this.panel.webview.postMessage(message);
  }

  private receive(message: unknown): void {
    if (!isWebviewToHost(message)) return;
    // The webview shows untrusted text: it may only act on the file this panel shows.
    if (message.type !== 'ready' && message.source !== this.target.source.toString()) return;
    this.handle(message);
  }

  private handle(message: WebviewToHost): void {
    switch (message.type) {
      case 'ready':
        void this.send();
        break;
      case 'reveal':
        void this.deps.reveal(this.target.source, message.rolloutId);
        break;
      case 'showGroup':
        this.deps.open('group', { source: this.target.source, rolloutId: message.rolloutId });
        break;
      case 'showDashboard':
        this.deps.open('dashboard', { source: this.target.source, rolloutId: null });
        break;
      case 'exportKept':
      case 'exportDecisions': {
        const what = message.type === 'exportKept' ? 'kept' : message.format;
        // Every request gets exactly one response, whatever happens on the way.
        void runExport(this.deps.store, { source: this.target.source, settings: message.settings, what })
          .catch((error: unknown): ExportResult => ({ status: 'failed', message: error instanceof Error ? error.message : String(error) }))
          .then((result) => this.post({ type: 'response', requestId: message.requestId, method: message.type, result }));
        break;
      }
      case 'label':
        void this.deps.labels?.apply(this.target.source, message.rolloutId, message.action, message.step);
        break;
      default: {
        const unexpected: never = message;
        void unexpected;
      }
    }
  }

  /** Shows a message in place of the panel's data (until the next send). */
  showNotice(text: string): void {
    this.notice(text);
  }

  private notice(text: string): void {
    this.post({ type: 'notice', notice: { source: this.target.source.toString(), text } });
  }

  private async send(): Promise<void> {
    const sequence = ++this.sequence;
    const { source } = this.target;
    const fileLabel = basename(source.path);
    const analysis = this.deps.store.get(source);
    if (!analysis) return this.notice(`${fileLabel} is not analysed: open it in the editor first.`);
    if (!analysis.summary) return this.notice(`Analysing ${fileLabel}…`);
    if (this.kind === 'dashboard') {
      this.panel.title = `PROF dashboard · ${fileLabel}`;
      const labels = this.deps.labels;
      const rollouts = analysis.index.all;
      const extra = labels ? { labels: labels.dashboard(source, rollouts, analysis.summary.settings.threshold), thresholdText: await labels.thresholdText(source, analysis.summary, rollouts) } : {};
      if (sequence !== this.sequence) return;
      this.post({ type: 'dashboard', data: { ...dashboardData({ source: source.toString(), fileLabel, rollouts, summary: analysis.summary }), ...extra } });
      return;
    }
    const rollout = this.target.rolloutId === null ? analysis.index.all[0] : analysis.index.byRolloutId(this.target.rolloutId);
    if (!rollout) return this.notice(`That rollout is no longer in ${fileLabel}.`);
    const members = analysis.index.group(rollout.group);
    const details = await this.deps.client.details(source.toString(), members.map((r) => r.id)).catch(() => []);
    if (sequence !== this.sequence) return;
    const groupLabel = groupLabels(analysis.index.all).get(rollout.group) ?? '';
    this.groupKey = rollout.group;
    this.panel.title = `PROF group ${groupLabel}`;
    const data = groupData({ source: source.toString(), fileLabel, groupLabel, members, details, summary: analysis.summary });
    const labels = this.deps.labels;
    if (labels) data.rows = data.rows.map((row) => ({ ...row, label: labels.badge(source, row.id) }));
    this.post({ type: 'group', data });
  }
}
