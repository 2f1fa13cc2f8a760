/**
 * The Rollout Explorer as one feature: the command that opens it (from the palette on the active
 * rollout file, on a file's URI, or with a query from a drill-down), the serializer that brings it
 * back after a reload, and refreshing when its file's analysis finishes.
 */
import * as vscode from 'vscode';
import { emptyQuery, parseExplorerQuery, type ExplorerQuery } from '../../core/explore/explorerQuery';
import { isExplorerState } from '../../protocol/explorer';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import type { AnalysisStore } from '../analysisStore';
import { commandIds, isRolloutTarget } from '../commandIds';
import { showInfo } from '../notify';
import { revealRollout } from '../panel/panelFeature';
import { createPanel, restorePanels } from '../webviewPanel';
import { ROLLOUT_VIEW_SCHEME } from '../rolloutView';
import { EXPLORER_PANEL, ExplorerPanel, runOfSource, runSource, type ExplorerPanelDeps, type ExplorerTarget, type RunTarget } from './explorerPanel';
import { pickRun } from '../run/runFeature';

export interface ExplorerFeatureDeps {
  extensionUri: vscode.Uri;
  store: Pick<AnalysisStore, 'get' | 'onDidUpdate' | 'onDidProgress' | 'uris' | 'analyseFile'>;
  client: Pick<AnalysisClient, 'explore'>;
  runs: ExplorerPanelDeps['runs'];
  runReading: ExplorerPanelDeps['runReading'];
}

/** What a drill-down passes to the command: a file (URI string) and the query to open it with. */
export interface ExploreArgs {
  source: string;
  query: unknown;
}

function isExploreArgs(value: unknown): value is ExploreArgs {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)['source'] === 'string' && 'query' in value;
}

/** A node of the PROF Lens sidebar, as its context menu hands it over. */
function isSidebarNode(value: unknown): value is { kind: 'file' | 'group' | 'rollout' | 'step'; source: string; groupId?: unknown } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (v['kind'] === 'file' || v['kind'] === 'group' || v['kind'] === 'rollout' || v['kind'] === 'step') && typeof v['source'] === 'string';
}

/** The analysed file the user means: the active editor's, else a visible one, else the only one. */
export function analysedFileInView(store: ExplorerFeatureDeps['store']): vscode.Uri | undefined {
  const editors = [vscode.window.activeTextEditor, ...vscode.window.visibleTextEditors].filter((e): e is vscode.TextEditor => !!e && e.document.uri.scheme !== ROLLOUT_VIEW_SCHEME);
  const shown = editors.find((e) => store.get(e.document.uri));
  if (shown) return shown.document.uri;
  const all = store.uris();
  return all.length === 1 ? all[0] : undefined;
}

function targetOf(store: ExplorerFeatureDeps['store'], arg: unknown): ExplorerTarget | undefined {
  if (isExploreArgs(arg)) {
    let query: ExplorerQuery | null = null;
    try {
      query = parseExplorerQuery(arg.query);
    } catch {
      query = null;
    }
    return { source: vscode.Uri.parse(arg.source), query };
  }
  // The sidebar's context menu passes its node: a group opens filtered to that group; a file, a
  // rollout or a run's step opens the whole file.
  if (isSidebarNode(arg)) {
    const query = arg.kind === 'group' && typeof arg.groupId === 'string' ? { ...emptyQuery(), filter: { group: arg.groupId } } : null;
    return { source: vscode.Uri.parse(arg.source), query };
  }
  if (isRolloutTarget(arg)) return { source: vscode.Uri.parse(arg.source), query: null };
  if (arg instanceof vscode.Uri) return { source: arg, query: null };
  const uri = analysedFileInView(store);
  return uri ? { source: uri, query: null } : undefined;
}

/** With several analysed files and none in view (files read from disk), the user picks one. */
async function pickAnalysed(store: ExplorerFeatureDeps['store']): Promise<ExplorerTarget | undefined> {
  const uris = store.uris().filter((u) => store.get(u)?.summary);
  const picked = await vscode.window.showQuickPick(uris.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })), { title: 'Open Rollout Explorer on…' });
  return picked ? { source: picked.uri, query: null } : undefined;
}

/** Owns the explorer panel (one at a time; opening another file shows it there). */
class Explorers implements vscode.Disposable {
  private host: ExplorerPanel | null = null;

  constructor(private readonly deps: ExplorerFeatureDeps) {}

  show(target: ExplorerTarget): void {
    // A file not analysed yet (a run's step file) is read from disk; the panel shows it when done.
    if (!target.run && !this.deps.store.get(target.source) && target.source.scheme === 'file') this.deps.store.analyseFile(target.source);
    if (this.host) return this.host.show(target);
    const panel = createPanel(EXPLORER_PANEL, this.deps.extensionUri, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false });
    // A new panel has no saved query: it shows every rollout, a query the host can run before the page is ready.
    this.adopt(panel, target.run ? target : { ...target, query: target.query ?? emptyQuery() });
  }

  adopt(panel: vscode.WebviewPanel, target: ExplorerTarget): void {
    this.host?.dispose();
    const host = new ExplorerPanel(panel, target, { ...this.deps, reveal: (source, id) => revealRollout(this.deps.store, source, id) });
    this.host = host;
    host.onDidDispose(() => {
      if (this.host === host) this.host = null;
    });
  }

  refresh(uri: vscode.Uri): void {
    if (this.host?.source.toString() === uri.toString()) this.host.refresh();
  }

  dispose(): void {
    this.host?.dispose();
    this.host = null;
  }
}

/** What "Open Rollout Explorer over Run…" was given: `{ run, split?, query? }` (the dashboard), a folder's URI (the explorer's context menu), or nothing (a folder is picked). */
async function runTargetOf(arg: unknown): Promise<ExplorerTarget | undefined> {
  let run: RunTarget | undefined;
  let query: ExplorerQuery | null = null;
  if (typeof arg === 'object' && arg !== null && typeof (arg as Record<string, unknown>)['run'] === 'string') {
    const a = arg as Record<string, unknown>;
    run = { path: a['run'] as string, split: a['split'] === 'validation' ? 'validation' : 'train' };
    try {
      query = a['query'] === undefined ? null : parseExplorerQuery(a['query']);
    } catch {
      query = null;
    }
  } else if (arg instanceof vscode.Uri && arg.scheme === 'file') {
    run = { path: arg.fsPath, split: 'train' };
  } else {
    const picked = await pickRun('Open Rollout Explorer over Run');
    if (picked) run = { path: picked.fsPath, split: 'train' };
  }
  return run ? { source: runSource(run), query, run } : undefined;
}

/** Registers the explorer's command, serializer and listener. */
export function createExplorerFeature(deps: ExplorerFeatureDeps): vscode.Disposable {
  const explorers = new Explorers(deps);
  return vscode.Disposable.from(
    explorers,
    vscode.commands.registerCommand(commandIds.openExplorer, async (arg: unknown) => {
      const target = targetOf(deps.store, arg);
      if (target) return explorers.show(target);
      if (!deps.store.uris().some((u) => deps.store.get(u)?.summary)) return void showInfo('Open an analysed rollout file first.');
      const picked = await pickAnalysed(deps.store);
      if (picked) explorers.show(picked);
    }),
    vscode.commands.registerCommand(commandIds.openRunExplorer, async (arg: unknown) => {
      const target = await runTargetOf(arg);
      if (target) explorers.show(target);
    }),
    restorePanels(EXPLORER_PANEL, isExplorerState, (panel, state) => {
      const source = vscode.Uri.parse(state.source);
      const run = runOfSource(source);
      explorers.adopt(panel, { source, query: null, ...(run ? { run } : {}) });
    }),
    deps.store.onDidUpdate((update) => update.isFinal && explorers.refresh(update.uri)),
  );
}
