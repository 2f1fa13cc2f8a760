/**
 * The PROF panels as one feature: the commands that open them and export, the serializers that
 * bring them back after a reload, refreshing when an analysis finishes, and the group view
 * following the cursor from group to group. The extension wires it with one call.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { isPanelState } from '../../protocol/panel';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import type { AnalysisStore } from '../analysisStore';
import { commandIds, isRolloutTarget } from '../commandIds';
import { showError, showInfo } from '../notify';
import { ROLLOUT_VIEW_SCHEME, rolloutViewUri } from '../rolloutView';
import { runExport } from './exportActions';
import type { PanelLabels } from '../labels/panelLabels';
import { PANELS, PanelHost, type PanelKind, type PanelTarget } from './panelHost';
import { createPanel, restorePanels } from '../webviewPanel';
import { where } from '../../protocol/guards';

/** The panels' commands (declared with all the others in commandIds). */
export const panelCommandIds = {
  showGroup: commandIds.showGroup,
  showDashboard: commandIds.showDashboard,
  exportKept: commandIds.exportKept,
  exportDecisions: commandIds.exportDecisions,
} as const;

/** What the panels need from the extension. */
export interface PanelFeatureDeps {
  extensionUri: vscode.Uri;
  store: Pick<AnalysisStore, 'get' | 'onDidUpdate' | 'analyseFile' | 'onDidProgress'>;
  client: Pick<AnalysisClient, 'details'>;
  /** The user's labels: badges, figures and label buttons in the panels. */
  labels?: PanelLabels & { onDidChange: vscode.Event<vscode.Uri> };
}

/** Puts the cursor on a rollout in its file, or in the Rollout View for a file read from disk. */
export async function revealRollout(store: PanelFeatureDeps['store'], source: vscode.Uri, rolloutId: number): Promise<void> {
  const analysis = store.get(source);
  const rollout = analysis?.index.byRolloutId(rolloutId);
  if (!analysis || !rollout) return;
  if (analysis.version === -1) {
    const view = await vscode.workspace.openTextDocument(rolloutViewUri(source, [rollout.id], `rollout ${rollout.id + 1}`));
    await vscode.window.showTextDocument(view, { preview: false, viewColumn: vscode.ViewColumn.One });
    return;
  }
  const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === source.toString());
  const document = visible?.document ?? await vscode.workspace.openTextDocument(source);
  const editor = await vscode.window.showTextDocument(document, { viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One, preserveFocus: false });
  const line = rollout.line - 1;
  const spans = rollout.rawSteps ?? [];
  const range = spans.length > 0
    ? new vscode.Range(line, spans[0]!.start, line, spans[spans.length - 1]!.end)
    : new vscode.Range(line, 0, line, 0);
  editor.selection = new vscode.Selection(range.start, range.start);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** The rollout under the cursor of the active rollout file, or the file itself. */
function targetAtCursor(store: PanelFeatureDeps['store']): PanelTarget | undefined {
  // From the walkthrough (a non-text editor has focus) the visible analysed file is meant.
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors.find((e) => store.get(e.document.uri));
  if (!editor || editor.document.uri.scheme === ROLLOUT_VIEW_SCHEME) return undefined;
  const analysis = store.get(editor.document.uri);
  if (!analysis) return undefined;
  const rollout = analysis.index.onLine(editor.selection.active.line + 1)[0];
  return { source: editor.document.uri, rolloutId: rollout?.id ?? null };
}

function targetOf(store: PanelFeatureDeps['store'], arg: unknown): PanelTarget | undefined {
  if (isRolloutTarget(arg)) return { source: vscode.Uri.parse(arg.source), rolloutId: arg.rolloutId };
  if (arg instanceof vscode.Uri) return { source: arg, rolloutId: null };
  return targetAtCursor(store);
}

/** The view type of the dashboard that opens in the editor for a `.parquet` file (package.json `customEditors`). */
export const PARQUET_EDITOR_VIEW_TYPE = 'profLens.parquetRollouts';

/** Owns the two panels (at most one of each), and the dashboards open as editors of parquet files. */
class Panels implements vscode.Disposable {
  private readonly open = new Map<PanelKind, PanelHost>();
  private readonly editors = new Set<PanelHost>();
  private followTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: PanelFeatureDeps) {}

  show(kind: PanelKind, target: PanelTarget): void {
    const existing = this.open.get(kind);
    if (existing) return existing.show(target);
    // The two panels share a column, so opening one from the other does not split the editor again.
    const sibling = this.open.get(kind === 'group' ? 'dashboard' : 'group')?.panel.viewColumn;
    const panel = createPanel(PANELS[kind], this.deps.extensionUri, { viewColumn: sibling ?? vscode.ViewColumn.Beside, preserveFocus: true });
    this.adopt(kind, panel, target);
  }

  adopt(kind: PanelKind, panel: vscode.WebviewPanel, target: PanelTarget): void {
    this.open.get(kind)?.dispose();
    const host = new PanelHost(panel, kind, target, {
      ...this.deps,
      reveal: (source, rolloutId) => revealRollout(this.deps.store, source, rolloutId),
      open: (other, next) => this.show(other, next),
    });
    this.open.set(kind, host);
    host.onDidDispose(() => {
      if (this.open.get(kind) === host) this.open.delete(kind);
    });
  }

  /**
   * A parquet file opened in the editor (it is not a text document): its file dashboard takes the
   * editor's place, analysed from disk in the worker as Open Large Rollout File does.
   */
  openEditor(panel: vscode.WebviewPanel, source: vscode.Uri): void {
    if (!this.deps.store.get(source)) this.deps.store.analyseFile(source);
    const host = new PanelHost(panel, 'dashboard', { source, rolloutId: null }, {
      ...this.deps,
      reveal: (file, rolloutId) => revealRollout(this.deps.store, file, rolloutId),
      open: (other, next) => this.show(other, next),
    });
    this.editors.add(host);
    // A file that cannot be read (not parquet after all, a codec not supported) says why, in place of "Analysing…".
    const failures = this.deps.store.onDidProgress((p) => {
      if (p.state === 'failed' && p.uri.toString() === source.toString()) host.showNotice(`${basename(source.path)} could not be analysed: ${p.message ?? 'the analysis failed'}`);
    });
    host.onDidDispose(() => {
      failures.dispose();
      this.editors.delete(host);
    });
  }

  /** A finished analysis: panels showing that file send their data again. */
  refresh(uri: vscode.Uri): void {
    for (const host of [...this.open.values(), ...this.editors]) if (host.source.toString() === uri.toString()) host.refresh();
  }

  /** The cursor moved: the group view follows it to another group of an analysed file. */
  follow(editor: vscode.TextEditor): void {
    const host = this.open.get('group');
    if (!host?.panel.visible) return;
    clearTimeout(this.followTimer);
    this.followTimer = setTimeout(() => {
      const analysis = this.deps.store.get(editor.document.uri);
      const rollout = analysis?.index.onLine(editor.selection.active.line + 1)[0];
      if (!rollout || (host.source.toString() === editor.document.uri.toString() && rollout.group === host.shownGroup)) return;
      host.show({ source: editor.document.uri, rolloutId: rollout.id }, false);
    }, 200);
  }

  dispose(): void {
    clearTimeout(this.followTimer);
    for (const host of [...this.open.values(), ...this.editors]) host.dispose();
    this.open.clear();
    this.editors.clear();
  }
}

/** Restores a panel of `kind` from its saved state. */
function restore(panels: Panels, kind: PanelKind): vscode.Disposable {
  return restorePanels(PANELS[kind], where(isPanelState, (state) => state.view === kind), (panel, state) =>
    panels.adopt(kind, panel, { source: vscode.Uri.parse(state.source), rolloutId: state.rolloutId }));
}

async function exportFromCommand(deps: PanelFeatureDeps, arg: unknown, what: 'kept' | 'auto'): Promise<void> {
  const target = targetOf(deps.store, arg);
  if (!target) {
    void showInfo('Open an analysed rollout file first.');
    return;
  }
  const result = await runExport(deps.store, { source: target.source, settings: null, what });
  if (result.status === 'saved') void showInfo(`PROF Lens: saved ${result.lines} lines to ${result.path}`);
  else if (result.status === 'failed') void showError(`PROF Lens: export failed: ${result.message}`);
}

/** Registers the panels' commands, serializers and listeners; dispose the result to remove them all. */
export function createPanelFeature(deps: PanelFeatureDeps): vscode.Disposable {
  const panels = new Panels(deps);
  const open = (kind: PanelKind) => (arg: unknown): void => {
    const target = targetOf(deps.store, arg);
    if (target) panels.show(kind, target);
    else void showInfo('Open an analysed rollout file and put the cursor on a rollout first.');
  };
  return vscode.Disposable.from(
    panels,
    vscode.commands.registerCommand(panelCommandIds.showGroup, open('group')),
    vscode.commands.registerCommand(panelCommandIds.showDashboard, open('dashboard')),
    vscode.commands.registerCommand(panelCommandIds.exportKept, (arg: unknown) => exportFromCommand(deps, arg, 'kept')),
    vscode.commands.registerCommand(panelCommandIds.exportDecisions, (arg: unknown) => exportFromCommand(deps, arg, 'auto')),
    restore(panels, 'group'),
    restore(panels, 'dashboard'),
    vscode.window.registerCustomEditorProvider(PARQUET_EDITOR_VIEW_TYPE, {
      openCustomDocument: (uri) => ({ uri, dispose: () => undefined }),
      resolveCustomEditor: (document, panel) => panels.openEditor(panel, document.uri),
    } satisfies vscode.CustomReadonlyEditorProvider, { supportsMultipleEditorsPerDocument: false }),
    deps.store.onDidUpdate((update) => update.isFinal && panels.refresh(update.uri)),
    ...(deps.labels ? [deps.labels.onDidChange((uri) => panels.refresh(uri))] : []),
    vscode.window.onDidChangeTextEditorSelection((event) => panels.follow(event.textEditor)),
  );
}
