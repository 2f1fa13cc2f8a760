/**
 * Registers every command in `commandIds`.
 */
import * as vscode from 'vscode';
import type { AnalysisStore } from './analysisStore';
import { commandIds, isRolloutTarget, type RolloutTarget } from './commandIds';
import type { HeatController } from './heat/heatController';
import { goToHotStep, listHotSteps } from './heat/hotStepNavigation';
import { openLargeFile } from './largeFile';
import { navigate } from './navigation';
import { showInfo } from './notify';
import { ROLLOUT_VIEW_SCHEME, rolloutViewUri, type RolloutViewProvider } from './rolloutView';
import type { ScorerNotices } from './scorerNotices';
import { chooseScorer } from './scorerPicker';
import { settingIds } from './settingIds';
import { readDecorationsEnabled, updateSetting } from './settings';

/** What the commands act on. */
export interface CommandDeps {
  store: AnalysisStore;
  views: RolloutViewProvider;
  /** Re-scoring lets model notices be shown again. */
  notices?: ScorerNotices;
  heat: HeatController;
}

/** The rollout under the cursor of the active editor (raw file or Rollout View). */
function targetAtCursor(deps: CommandDeps): RolloutTarget | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const { document, selection } = editor;
  if (document.uri.scheme === ROLLOUT_VIEW_SCHEME) {
    const hit = deps.views.hitAt(document.uri, selection.active.line);
    return hit && { source: hit.source.toString(), rolloutId: hit.rollout.id };
  }
  const index = deps.store.get(document.uri)?.index;
  const position = { line: selection.active.line + 1, character: selection.active.character };
  const rollout = index?.rolloutAt(position);
  return rollout && { source: document.uri.toString(), rolloutId: rollout.id };
}

async function openView(deps: CommandDeps, arg: unknown, isGroup: boolean): Promise<void> {
  const target = isRolloutTarget(arg) ? arg : targetAtCursor(deps);
  if (!target) {
    void showInfo('Put the cursor on an analysed rollout first.');
    return;
  }
  const source = vscode.Uri.parse(target.source);
  const index = deps.store.get(source)?.index;
  const rollout = index?.byRolloutId(target.rolloutId);
  if (!index || !rollout) return;
  const members = isGroup ? index.group(rollout.group) : [rollout];
  const ids = members.map((r) => r.id);
  // The title names what the view shows first: its first rollout's header reads `# Rollout N · line L`.
  const first = members[0] ?? rollout;
  const title = isGroup ? `group of ${ids.length} from line ${first.line}` : `rollout ${rollout.id + 1} (line ${rollout.line})`;
  const document = await vscode.workspace.openTextDocument(rolloutViewUri(source, ids, title));
  await vscode.window.showTextDocument(document, { preview: false, viewColumn: vscode.ViewColumn.Beside });
}

async function toggleDecorations(): Promise<void> {
  await updateSetting(settingIds.decorationsEnabled, !readDecorationsEnabled(), vscode.ConfigurationTarget.Global);
}

/** Runs the analysis again (answers the cache already holds are reused); a model that failed is retried. */
function rescore(deps: CommandDeps): void {
  const document = vscode.window.activeTextEditor?.document;
  if (!document) return;
  deps.notices?.reset();
  // From a Rollout View, the file it shows is re-scored.
  const uri = document.uri.scheme === ROLLOUT_VIEW_SCHEME ? deps.views.hitAt(document.uri, document.lineCount)?.source : document.uri;
  if (!uri) return;
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open && deps.store.get(uri)?.version !== -1) deps.store.analyseDocument(open, { shouldRetryModel: true });
  else deps.store.analyseFile(uri, { shouldRetryModel: true });
}

/** Registers the commands; the returned disposables belong to the caller. */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { store, views } = deps;
  const register = (id: string, run: (...args: unknown[]) => unknown): vscode.Disposable =>
    vscode.commands.registerCommand(id, run);
  return [
    register(commandIds.nextLowStep, () => navigate(store, views, 'nextLowStep')),
    register(commandIds.previousLowStep, () => navigate(store, views, 'previousLowStep')),
    register(commandIds.nextFalsePositive, () => navigate(store, views, 'nextFalsePositive')),
    register(commandIds.nextGroup, () => navigate(store, views, 'nextGroup')),
    register(commandIds.openRolloutView, (arg) => openView(deps, arg, false)),
    register(commandIds.openGroupView, (arg) => openView(deps, arg, true)),
    register(commandIds.toggleDecorations, toggleDecorations),
    register(commandIds.toggleTokenHeat, () => deps.heat.toggle()),
    register(commandIds.nextHotStep, () => goToHotStep(deps, 1)),
    register(commandIds.previousHotStep, () => goToHotStep(deps, -1)),
    register(commandIds.listHotSteps, () => listHotSteps(deps)),
    register(commandIds.chooseScorer, chooseScorer),
    register(commandIds.rescore, () => rescore(deps)),
    register(commandIds.cancelAnalysis, () => {
      const uri = vscode.window.activeTextEditor?.document.uri;
      if (uri) store.cancel(uri);
    }),
    register(commandIds.openLargeFile, () => openLargeFile(deps)),
    register(commandIds.analyseFile, () => {
      const document = vscode.window.activeTextEditor?.document;
      if (document) store.analyseDocument(document, { isForced: true });
    }),
  ];
}
