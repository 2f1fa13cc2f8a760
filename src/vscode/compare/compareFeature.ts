/**
 * **PROF Lens: Compare with…**: the active rollout file against a second one the user picks (an
 * open analysed file, or any file from disk, which is then analysed from disk), aligned by prompt
 * in the analysis worker, shown in the Compare view.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import type { AnalysisStore } from '../analysisStore';
import { commandIds } from '../commandIds';
import { showError, showInfo, withNotificationProgress } from '../notify';
import { revealRollout } from '../panel/panelFeature';
import { createPanel, restorePanels } from '../webviewPanel';
import { isCompareState } from '../../protocol/explorer';
import { analysedFileInView } from '../explorer/explorerFeature';
import { COMPARE_PANEL, ComparePanel } from './comparePanel';
import { errorText } from '../../core/errorText';

export interface CompareFeatureDeps {
  extensionUri: vscode.Uri;
  store: Pick<AnalysisStore, 'get' | 'onDidUpdate' | 'onDidProgress' | 'uris' | 'analyseFile'>;
  client: Pick<AnalysisClient, 'explore'>;
}

/** How long a side may take to be analysed before the comparison gives up on it. */
const ANALYSIS_WAIT_MS = 10 * 60_000;

const CHOOSE_FILE = 'Choose a file…';

async function pickOther(store: CompareFeatureDeps['store'], a: vscode.Uri): Promise<vscode.Uri | undefined> {
  const others = store.uris().filter((u) => u.toString() !== a.toString() && store.get(u)?.summary);
  const items: (vscode.QuickPickItem & { uri?: vscode.Uri })[] = [
    ...others.map((uri) => ({ label: basename(uri.path), description: vscode.workspace.asRelativePath(uri), uri })),
    { label: CHOOSE_FILE, description: 'a rollout file on disk' },
  ];
  const picked = others.length === 0 ? items[0] : await vscode.window.showQuickPick(items, { title: `Compare ${basename(a.path)} with…`, placeHolder: 'the other dump (b)' });
  if (!picked) return undefined;
  if (picked.uri) return picked.uri;
  const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, title: `Compare ${basename(a.path)} with`, openLabel: 'Compare', filters: { 'Rollout files': ['jsonl', 'json'] } });
  return chosen?.[0];
}

/** Resolves once `uri` has a finished analysis (starting one from disk when it has none). */
export function analysed(store: CompareFeatureDeps['store'], uri: vscode.Uri): Promise<void> {
  if (store.get(uri)?.summary) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const key = uri.toString();
    const done = (error?: Error): void => {
      clearTimeout(timer);
      updates.dispose();
      progress.dispose();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => done(new Error(`${basename(uri.path)} was not analysed in time`)), ANALYSIS_WAIT_MS);
    const updates = store.onDidUpdate((u) => u.isFinal && u.uri.toString() === key && done());
    const progress = store.onDidProgress((p) => p.state === 'failed' && p.uri.toString() === key && done(new Error(`${basename(uri.path)} could not be analysed: ${p.message ?? 'unknown error'}`)));
    if (!store.get(uri)) store.analyseFile(uri);
  });
}

/** Registers the command; dispose the result to remove it and close the view. */
export function createCompareFeature(deps: CompareFeatureDeps): vscode.Disposable {
  let view: ComparePanel | null = null;
  const adopt = (panel: vscode.WebviewPanel): ComparePanel => {
    const created = new ComparePanel(panel, { ...deps, reveal: (source, id) => revealRollout(deps.store, source, id) });
    created.onDidDispose(() => {
      if (view === created) view = null;
    });
    view = created;
    return created;
  };
  /** Both sides analysed (from disk when not open), compared in the worker, shown in `target` or a new view. */
  const show = async (a: vscode.Uri, b: vscode.Uri, target?: ComparePanel): Promise<void> => {
    /** A view opened for this comparison: closed again should it fail, as if never opened. */
    let opened = undefined as ComparePanel | undefined;
    try {
      await withNotificationProgress({ title: `PROF Lens: comparing ${basename(a.path)} with ${basename(b.path)}` }, async () => {
        await Promise.all([analysed(deps.store, a), analysed(deps.store, b)]);
        // The worker compares while a new view's page loads (the slower of the two, a second or more).
        const answering = deps.client.explore(a.toString(), { method: 'compare', other: b.toString() });
        const shown = target ?? view ?? (opened = adopt(createPanel(COMPARE_PANEL, deps.extensionUri, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false })));
        const answer = await answering;
        shown.show({ a: a.toString(), b: b.toString(), labelA: basename(a.path), labelB: basename(b.path), comparison: answer.comparison });
      });
    } catch (error) {
      opened?.dispose();
      const text = `cannot compare: ${errorText(error)}`;
      if (target) target.notice(`PROF Lens ${text}`);
      void showError(`PROF Lens: ${text}`);
    }
  };
  const compare = async (arg: unknown): Promise<void> => {
    const a = arg instanceof vscode.Uri ? arg : analysedFileInView(deps.store);
    if (!a) return void showInfo('Open an analysed rollout file first: it is side a of the comparison.');
    const b = await pickOther(deps.store, a);
    if (!b) return;
    if (b.toString() === a.toString()) return void showInfo('Pick another file than the one compared.');
    await show(a, b);
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(commandIds.compareWith, compare),
    // After a reload the view compares the same two files again (its comparison is not saved, only their names).
    restorePanels(COMPARE_PANEL, isCompareState, (panel, state) => {
      const restored = adopt(panel);
      panel.title = `Compare · ${basename(vscode.Uri.parse(state.a).path)} ↔ ${basename(vscode.Uri.parse(state.b).path)}`;
      void show(vscode.Uri.parse(state.a), vscode.Uri.parse(state.b), restored);
    }),
    { dispose: () => view?.dispose() },
  );
}
