/**
 * One notice per file when ties decide most of what PROF ranked under the current scorer ("The
 * checker cannot tell 603 of 1,024 rollouts apart"), offering a PRM or a critic. The count is taken
 * from the summaries the host already holds, a slice per event-loop turn, and only in files where
 * the analysis's report counts ties at all.
 */
import * as vscode from 'vscode';
import { isMostlyTies, tieNoticeText } from '../core/presentation/tieWords';
import type { AnalysisStore, DocumentAnalysis } from './analysisStore';
import { commandIds } from './commandIds';
import { showInfo } from './notify';
import { scorerInUse } from './scorerInUse';
import { countTied } from './tieCount';

const CHOOSE = 'Choose a PRM or Critic';

/** Shows the notice once per file and scorer. */
export class TieNotices implements vscode.Disposable {
  private readonly shown = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: AnalysisStore) {
    this.subscription = store.onDidUpdate((update) => {
      const analysis = update.isFinal ? store.get(update.uri) : undefined;
      if (analysis?.summary) void this.check(analysis);
    });
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private async check(analysis: DocumentAnalysis): Promise<void> {
    const summary = analysis.summary;
    if (!summary || (summary.report.byReason['dropped-tie'] ?? 0) === 0) return;
    const scorer = scorerInUse(summary.report.scorers, summary.scorer.label);
    const key = `${analysis.uri.toString()}\u0000${scorer}`;
    if (this.shown.has(key)) return;
    const ranked = summary.report.rollouts - summary.report.notRanked;
    const tied = await countTied(analysis.index.all, () => this.store.get(analysis.uri) === analysis);
    if (tied === null || !isMostlyTies(tied, ranked) || this.shown.has(key)) return;
    this.shown.add(key);
    const action = await showInfo(`PROF Lens: ${tieNoticeText(scorer, tied, ranked)}`, CHOOSE);
    if (action === CHOOSE) await vscode.commands.executeCommand(commandIds.chooseScorer);
  }
}
