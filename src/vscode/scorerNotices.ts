/**
 * Tells the user, once, when the configured model is not what scores their file: it failed to
 * load or to score (an error, with a re-score action), or the settings leave it out (a warning).
 * The status bar keeps saying so for as long as it lasts.
 */
import * as vscode from 'vscode';
import type { AnalysisStore } from './analysisStore';
import { commandIds } from './commandIds';
import { showError, showWarning } from './notify';
import type { ScorerNotice } from './scorerFromSettings';
import { affectsScoring } from './settings';

const RESCORE = 'Re-score';
const CHOOSE = 'Choose Scorer';
const SETTINGS = 'Open Settings';

/** Shows each distinct scorer notice once, until the scoring settings change or a re-score. */
export class ScorerNotices implements vscode.Disposable {
  private readonly shown = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(store: AnalysisStore) {
    this.subscriptions = [
      store.onDidUpdate((update) => {
        const notice = update.isFinal ? store.get(update.uri)?.scorerNotice : undefined;
        if (notice) this.show(notice);
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsScoring(event)) this.reset();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.reset()),
    ];
  }

  /** Lets every notice be shown again (the user asked to re-score, or changed the settings). */
  reset(): void {
    this.shown.clear();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private show(notice: ScorerNotice): void {
    if (notice.isQuiet || this.shown.has(notice.message)) return;
    this.shown.add(notice.message);
    const text = `PROF Lens: ${notice.message}`;
    const shown = notice.isError
      ? showError(text, RESCORE, CHOOSE, SETTINGS)
      : showWarning(text, CHOOSE, SETTINGS);
    void shown.then((action) => {
      if (action === RESCORE) void vscode.commands.executeCommand(commandIds.rescore);
      else if (action === CHOOSE) void vscode.commands.executeCommand(commandIds.chooseScorer);
      else if (action === SETTINGS) void vscode.commands.executeCommand('workbench.action.openSettings', 'profLens.scoring');
    });
  }
}
