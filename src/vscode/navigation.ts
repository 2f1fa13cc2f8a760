/**
 * Moving through a rollout file or a Rollout View: next/previous low-score step, next suspected
 * false positive, next group.
 */
import * as vscode from 'vscode';
import type { AnalysisStore } from './analysisStore';
import { showInfo } from './notify';
import { ROLLOUT_VIEW_SCHEME, type RolloutViewProvider } from './rolloutView';

/** What to look for. */
export type NavigationTarget = 'nextLowStep' | 'previousLowStep' | 'nextFalsePositive' | 'nextGroup';

const NOTHING_FOUND: Record<NavigationTarget, string> = {
  nextLowStep: 'No low-score steps here.',
  previousLowStep: 'No low-score steps here.',
  nextFalsePositive: 'No suspected false positives here.',
  nextGroup: 'No other group here.',
};

function reveal(editor: vscode.TextEditor, range: vscode.Range): void {
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

function rawTarget(store: AnalysisStore, editor: vscode.TextEditor, target: NavigationTarget): vscode.Range | undefined {
  const index = store.get(editor.document.uri)?.index;
  if (!index) return undefined;
  // From the selection's start: after a jump the whole step is selected, and the next jump (either
  // way) must leave that step rather than find it again.
  const position = editor.selection.start;
  const from = { line: position.line + 1, character: position.character };
  if (target === 'nextLowStep' || target === 'previousLowStep') {
    const step = index.nearestLowStep(from, target === 'nextLowStep' ? 1 : -1);
    return step && new vscode.Range(step.rollout.line - 1, step.start, step.rollout.line - 1, step.end);
  }
  const rollout = target === 'nextGroup'
    ? index.nextGroup(from.line)
    : index.nextRollout(from.line, (r) => r.falsePositive.suspected);
  if (!rollout) return undefined;
  const span = rollout.firstLowStep === null ? undefined : rollout.rawSteps?.[rollout.firstLowStep];
  return span && target === 'nextFalsePositive'
    ? new vscode.Range(rollout.line - 1, span.start, rollout.line - 1, span.end)
    : new vscode.Range(rollout.line - 1, 0, rollout.line - 1, 0);
}

function viewTarget(views: RolloutViewProvider, editor: vscode.TextEditor, target: NavigationTarget): vscode.Range | undefined {
  const layout = views.layout(editor.document.uri);
  if (!layout) return undefined;
  const line = editor.selection.active.line;
  const candidates: number[] = [];
  layout.rollouts.forEach((placed, i) => {
    const rollout = layout.details[i];
    if (!rollout) return;
    if (target === 'nextGroup' || (target === 'nextFalsePositive' && rollout.falsePositive.suspected)) {
      candidates.push(placed.headerLine);
    } else if (target === 'nextLowStep' || target === 'previousLowStep') {
      for (const step of placed.steps) {
        if (rollout.lowSteps.includes(step.step)) candidates.push(step.headerLine);
      }
    }
  });
  const next = target === 'previousLowStep'
    ? [...candidates].reverse().find((l) => l < line) ?? candidates[candidates.length - 1]
    : candidates.find((l) => l > line) ?? candidates[0];
  return next === undefined ? undefined : new vscode.Range(next, 0, next, 0);
}

/** Moves the active editor's selection to the next target, or says there is none. */
export function navigate(store: AnalysisStore, views: RolloutViewProvider, target: NavigationTarget): void {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  const range = editor.document.uri.scheme === ROLLOUT_VIEW_SCHEME
    ? viewTarget(views, editor, target)
    : rawTarget(store, editor, target);
  if (range) reveal(editor, range);
  else void showInfo(NOTHING_FOUND[target]);
}
