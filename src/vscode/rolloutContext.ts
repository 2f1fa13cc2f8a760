/**
 * The `profLens.isRolloutFile` context key: true while the active editor shows a file PROF Lens
 * analyses, so its commands are offered and its keys (Alt+] …) are taken only there — never in a
 * `tsconfig.json`.
 */
import * as vscode from 'vscode';
import type { AnalysisStore } from './analysisStore';
import { ROLLOUT_FILE_CONTEXT } from './commandIds';

/** Keeps the context key in step with the active editor and the analyses; dispose to stop. */
export function trackRolloutContext(store: AnalysisStore): vscode.Disposable {
  let current: boolean | undefined;
  const update = (): void => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const isRollout = uri !== undefined && store.get(uri) !== undefined;
    if (isRollout === current) return;
    current = isRollout;
    void vscode.commands.executeCommand('setContext', ROLLOUT_FILE_CONTEXT, isRollout);
  };
  update();
  return vscode.Disposable.from(
    vscode.window.onDidChangeActiveTextEditor(update),
    store.onDidUpdate(update),
    store.onDidProgress(update),
  );
}
