/**
 * One PROF panel (the group view or the file dashboard) in the shared webview panel host: the
 * messages it exchanges with the webview, and the data it sends. The webview is rebuilt when it is
 * shown again (no retained context); its `ready` asks for the data. A new panel's data is made
 * while its page loads (a new webview takes a second or more to say ready) and sent at `ready`.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { exportDecisions, exportKept, isWebviewToHost, type ExportResult, type HostToWebview, type WebviewToHost } from '../../protocol/panel';
import { unhandled } from '../../protocol/messages';
import type { PanelLabels } from '../labels/panelLabels';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import type { AnalysisStore } from '../analysisStore';
import { runExport } from './exportActions';
import { commandIds } from '../commandIds';
import { dashboardData, groupData, groupLabels } from './panelData';
import { groupNamesOfSummary } from '../sidebar/sidebarModel';
import { shortGroupName } from '../../core/presentation/groupNames';
import { KATEX_STYLES, PANEL_STYLES, WebviewPanelHost, type PanelDeclaration } from '../webviewPanel';

/** The two panels. */
export type PanelKind = 'group' | 'dashboard';

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

const panelPage = { script: ['dist', 'webview.js'], styles: [KATEX_STYLES, PANEL_STYLES], receives: isWebviewToHost };

/** A group's tab title holds this much of its name (a tab is as wide as its title). */
const GROUP_TAB_CHARS = 40;

/** The two panels' declarations. */
export const PANELS: Record<PanelKind, PanelDeclaration<WebviewToHost>> = {
  group: { viewType: 'profLens.groupPanel', title: 'PROF group', ...panelPage },
  dashboard: { viewType: 'profLens.dashboardPanel', title: 'PROF dashboard', ...panelPage },
};

/** A live panel. */
export class PanelHost implements vscode.Disposable {
  private readonly view: WebviewPanelHost<HostToWebview, WebviewToHost>;
  /** Fires once, when the user closes the panel or it is disposed. */
  readonly onDidDispose: vscode.Event<void>;
  /** Counts sends so that a slow detail fetch does not overwrite a newer view. */
  private sequence = 0;
  /** The data made while a new panel's page loads, under the send it counts as. */
  private early: { sequence: number; message: Promise<HostToWebview | null> } | null = null;
  private groupKey: string | null = null;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly kind: PanelKind,
    private target: PanelTarget,
    private readonly deps: PanelHostDeps,
  ) {
    this.view = new WebviewPanelHost(panel, PANELS[kind], deps.extensionUri, { onReady: () => this.ready(), onMessage: (message) => this.receive(message) });
    this.onDidDispose = this.view.onDidDispose;
    const sequence = ++this.sequence;
    this.early = { sequence, message: this.message(sequence) };
  }

  /** The page said ready: the data made meanwhile goes, unless a newer send has replaced it. */
  private ready(): void {
    const early = this.early;
    this.early = null;
    if (!early || early.sequence !== this.sequence) return void this.send();
    void early.message.then((message) => message && early.sequence === this.sequence && this.post(message));
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
    this.view.dispose();
  }

  private post(message: HostToWebview): void {
    this.view.post(message);
  }

  private receive(message: Exclude<WebviewToHost, { type: 'ready' }>): void {
    // The webview shows untrusted text: it may only act on the file this panel shows.
    if (message.source !== this.target.source.toString()) return;
    switch (message.type) {
      case 'reveal':
        void this.deps.reveal(this.target.source, message.rolloutId);
        break;
      case 'showGroup':
        this.deps.open('group', { source: this.target.source, rolloutId: message.rolloutId });
        break;
      case 'showDashboard':
        this.deps.open('dashboard', { source: this.target.source, rolloutId: null });
        break;
      case 'compareRules':
        void vscode.commands.executeCommand(commandIds.compareRules, this.target.source);
        break;
      case 'exportKept':
      case 'exportDecisions': {
        const what = message.type === 'exportKept' ? 'kept' : message.format;
        // Every request gets exactly one response, whatever happens on the way.
        this.view.answer(message.type === 'exportKept' ? exportKept : exportDecisions, message,
          () => runExport(this.deps.store, { source: this.target.source, settings: message.settings, what }),
          (failure): ExportResult => ({ status: 'failed', message: failure }));
        break;
      }
      case 'label':
        void this.deps.labels?.apply(this.target.source, message.rolloutId, message.action, message.step);
        break;
      default:
        unhandled(message);
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
    const message = await this.message(sequence);
    if (message && sequence === this.sequence) this.post(message);
  }

  /** What the panel shows now, as a message; null when a newer send has begun meanwhile. */
  private async message(sequence: number): Promise<HostToWebview | null> {
    const { source } = this.target;
    const fileLabel = basename(source.path);
    const notice = (text: string): HostToWebview => ({ type: 'notice', notice: { source: source.toString(), text } });
    const analysis = this.deps.store.get(source);
    if (!analysis) return notice(`${fileLabel} is not analysed: open it in the editor first.`);
    if (!analysis.summary) return notice(`Analysing ${fileLabel}…`);
    if (this.kind === 'dashboard') {
      this.panel.title = `PROF dashboard · ${fileLabel}`;
      const labels = this.deps.labels;
      const rollouts = analysis.index.all;
      const extra = labels ? { labels: labels.dashboard(source, rollouts, analysis.summary.settings.threshold), thresholdText: await labels.thresholdText(source, analysis.summary, rollouts) } : {};
      if (sequence !== this.sequence) return null;
      const groupNames = groupNamesOfSummary(analysis.summary);
      return { type: 'dashboard', data: { ...dashboardData({ source: source.toString(), fileLabel, rollouts, summary: analysis.summary, ...(groupNames ? { groupNames } : {}) }), ...extra } };
    }
    const rollout = this.target.rolloutId === null ? analysis.index.all[0] : analysis.index.byRolloutId(this.target.rolloutId);
    if (!rollout) return notice(`That rollout is no longer in ${fileLabel}.`);
    const members = analysis.index.group(rollout.group);
    const details = await this.deps.client.details(source.toString(), members.map((r) => r.id)).catch(() => []);
    if (sequence !== this.sequence) return null;
    const groupLabel = groupLabels(analysis.index.all).get(rollout.group) ?? '';
    const groupName = members[0] ? groupNamesOfSummary(analysis.summary)?.get(members[0].id) ?? '' : '';
    this.groupKey = rollout.group;
    // Named by its question, shortened to fit a tab; the panel's heading has it whole, and the id.
    this.panel.title = `PROF group · ${shortGroupName(groupName, groupLabel, GROUP_TAB_CHARS)}`;
    const data = groupData({ source: source.toString(), fileLabel, groupLabel, groupName, members, details, summary: analysis.summary });
    const labels = this.deps.labels;
    if (labels) data.rows = data.rows.map((row) => ({ ...row, label: labels.badge(source, row.id) }));
    return { type: 'group', data };
  }
}
