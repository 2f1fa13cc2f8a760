/**
 * Files over 50 MB are not handed to extensions by the editor: this command reads one from disk
 * in the worker and lets the user pick rollouts to read in the Rollout View.
 */
import * as vscode from 'vscode';
import type { AnalysisStore } from './analysisStore';
import { commandIds, type RolloutTarget } from './commandIds';
import { formatScore } from '../core/presentation/numbers';
import { rolloutLocation } from '../core/presentation/locationWords';
import { outcomeSymbol } from '../core/presentation/outcomeWords';
import { falsePositiveRulesText, reasonLabel } from '../core/presentation/reasonWords';
import { withNotificationProgress } from './notify';
import type { RolloutViewProvider } from './rolloutView';

/** Items in the picker: suspected false positives first, then file order. */
const MAX_PICKS = 5_000;

function waitForAnalysis(store: AnalysisStore, uri: vscode.Uri): Promise<boolean> {
  const key = uri.toString();
  return new Promise((resolve) => {
    const subscriptions = [
      store.onDidUpdate((u) => {
        if (u.uri.toString() === key && u.isFinal) done(true);
      }),
      store.onDidProgress((p) => {
        if (p.uri.toString() === key && p.state === 'failed') done(false);
      }),
    ];
    const done = (isOk: boolean): void => {
      for (const s of subscriptions) s.dispose();
      resolve(isOk);
    };
  });
}

/** Asks for a file, analyses it from disk and opens the chosen rollout in the Rollout View. */
export async function openLargeFile(deps: { store: AnalysisStore; views: RolloutViewProvider }): Promise<void> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    filters: { 'Rollout files': ['jsonl', 'json', 'parquet'] },
    title: 'Open a large rollout file from disk',
  });
  const uri = picked?.[0];
  if (!uri) return;
  const finished = waitForAnalysis(deps.store, uri);
  deps.store.analyseFile(uri);
  const isOk = await withNotificationProgress(
    { title: `PROF Lens: analysing ${uri.fsPath}`, cancellable: true },
    (_progress, token) => {
      token.onCancellationRequested(() => deps.store.cancel(uri));
      return finished;
    },
  );
  const index = deps.store.get(uri)?.index;
  if (!isOk || !index) return;
  const ordered = [...index.all].sort((a, b) => Number(b.falsePositive.suspected) - Number(a.falsePositive.suspected));
  const choice = await vscode.window.showQuickPick(
    ordered.slice(0, MAX_PICKS).map((r) => ({
      label: `${outcomeSymbol(r.outcome.kind)} ${rolloutLocation({ line: r.line, index: r.index })}`,
      description: `${reasonLabel(r.decision.reason)} · weakest ${formatScore(r.weakestStep?.score)}`,
      detail: r.falsePositive.suspected ? `⚠ suspected false positive (${falsePositiveRulesText(r.falsePositive.rules)}): ${r.evidence ?? ''}` : undefined,
      id: r.id,
    })),
    { title: `${index.size} rollouts — pick one to read`, matchOnDescription: true },
  );
  if (!choice) return;
  const target: RolloutTarget = { source: uri.toString(), rolloutId: choice.id };
  await vscode.commands.executeCommand(commandIds.openRolloutView, target);
}
