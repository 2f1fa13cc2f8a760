/**
 * A CodeLens above each rollout line: the PROF decision and its reason; clicking opens the group
 * in the Rollout View. In large files only the lines around the visible ones get lenses, so the
 * editor is never handed tens of thousands of them.
 */
import * as vscode from 'vscode';
import type { RolloutSummary } from '../protocol/analysis';
import type { AnalysisStore } from './analysisStore';
import { commandIds, type RolloutTarget } from './commandIds';
import { labelBadge } from './labels/labelFigures';
import type { LabelsController } from './labels/labelsController';
import { fillSummary, groupLineSummary } from '../core/presentation/summaryWords';
import { tiedMembers } from '../core/presentation/tieWords';
import { lensTitle, LONG_LINE } from './codeLensText';
import { DEFAULT_SUMMARY_TEMPLATE } from './settingIds';

/** Files with more rollout lines than this get lenses only near what is visible. */
const WINDOWED_ABOVE = 2_000;
const WINDOW_MARGIN = 200;

interface LineWindow {
  from: number;
  to: number;
}

/** Lenses come from the latest analysis; they refresh when it or the visible window changes. */
export class RolloutCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changes.event;
  private readonly subscriptions: vscode.Disposable[];
  private readonly served = new Map<string, LineWindow>();

  constructor(
    private readonly store: AnalysisStore,
    private readonly isEnabled: () => boolean,
    /** The end-of-line summary's template, repeated in the lens of a long line. */
    private readonly template: () => string = () => DEFAULT_SUMMARY_TEMPLATE,
    private readonly labels?: Pick<LabelsController, 'matchOf' | 'onDidChange'>,
  ) {
    this.subscriptions = [
      store.onDidUpdate((update) => update.isFinal && this.changes.fire()),
      ...(labels ? [labels.onDidChange(() => this.changes.fire())] : []),
      vscode.window.onDidChangeTextEditorVisibleRanges((event) => this.onScroll(event.textEditor)),
    ];
  }

  /** Re-asks VS Code for lenses (after the setting changed). */
  refresh(): void {
    this.changes.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const analysis = this.store.get(document.uri);
    if (!this.isEnabled() || !analysis?.summary || analysis.version !== document.version) return [];
    const window = analysis.index.size > WINDOWED_ABOVE ? visibleWindow(document) : undefined;
    if (window) this.served.set(document.uri.toString(), window);
    const lenses: vscode.CodeLens[] = [];
    // Ties are found once per group, not once per lens (a group can hold a million rollouts).
    const ties = new Map<string, Map<RolloutSummary, number>>();
    let lastLine = -1;
    for (const rollout of analysis.index.all) {
      if (rollout.line === lastLine || rollout.line > document.lineCount) continue;
      if (window && (rollout.line - 1 < window.from || rollout.line - 1 > window.to)) continue;
      lastLine = rollout.line;
      const onLine = analysis.index.onLine(rollout.line);
      const group = analysis.index.group(rollout.group);
      let tied = ties.get(rollout.group);
      if (!tied && onLine.length === 1) ties.set(rollout.group, tied = tiedMembers(group));
      const isLong = document.lineAt(rollout.line - 1).text.length > LONG_LINE;
      const summary = isLong ? fillSummary(this.template(), rollout) : undefined;
      const base = onLine.length > 1 || !tied ? `PROF: ${groupLineSummary(onLine)}` : lensTitle(rollout, group, tied, summary);
      const title = onLine.length > 1 ? base : `${base}${this.badgeText(document.uri, rollout.id)}`;
      const target: RolloutTarget = { source: document.uri.toString(), rolloutId: rollout.id };
      lenses.push(new vscode.CodeLens(new vscode.Range(rollout.line - 1, 0, rollout.line - 1, 0), {
        title,
        command: commandIds.openGroupView,
        arguments: [target],
        tooltip: 'Open this group in the Rollout View',
      }));
      lenses.push(new vscode.CodeLens(new vscode.Range(rollout.line - 1, 0, rollout.line - 1, 0), {
        title: 'Show PROF Group',
        command: commandIds.showGroup,
        arguments: [target],
        tooltip: 'Open the group panel: decisions, penalties and what-if controls',
      }));
    }
    return lenses;
  }

  /** ` · labelled …` for a labelled rollout, else nothing. */
  private badgeText(uri: vscode.Uri, rolloutId: number): string {
    const badge = labelBadge(this.labels?.matchOf(uri, rolloutId));
    return badge ? ` · ${badge}` : '';
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changes.dispose();
  }

  private onScroll(editor: vscode.TextEditor): void {
    const served = this.served.get(editor.document.uri.toString());
    const visible = visibleWindow(editor.document, 0);
    if (served && visible && (visible.from < served.from || visible.to > served.to)) this.changes.fire();
  }
}

/** The lines shown in this document's visible editors, widened by a margin. */
function visibleWindow(document: vscode.TextDocument, margin = WINDOW_MARGIN): LineWindow | undefined {
  const key = document.uri.toString();
  const ranges = vscode.window.visibleTextEditors
    .filter((e) => e.document.uri.toString() === key)
    .flatMap((e) => e.visibleRanges);
  if (ranges.length === 0) return { from: 0, to: 2 * WINDOW_MARGIN };
  return {
    from: Math.max(0, Math.min(...ranges.map((r) => r.start.line)) - margin),
    to: Math.max(...ranges.map((r) => r.end.line)) + margin,
  };
}
