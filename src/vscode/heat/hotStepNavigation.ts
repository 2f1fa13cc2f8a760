/**
 * Moving through a file's hot steps (`core/tokens/hotSteps.ts`): next and previous, in a raw file
 * or a Rollout View, and a list to pick one from. The steps come ranked from the analysis worker.
 */
import * as vscode from 'vscode';
import type { HotStep } from '../../core/tokens/hotSteps';
import type { AnalysisStore } from '../analysisStore';
import { showInfo } from '../notify';
import { ROLLOUT_VIEW_SCHEME, type RolloutViewProvider } from '../rolloutView';
import type { HeatController } from './heatController';

const NONE = 'No steps with per-token log-probabilities or entropies placed on their text here.';

/** What the commands need. */
export interface HotStepDeps {
  store: AnalysisStore;
  views: RolloutViewProvider;
  heat: Pick<HeatController, 'hotSteps'>;
}

/** A hot step where the editor shows it. */
interface Located {
  hot: HotStep;
  range: vscode.Range;
}

/** The source file an editor shows (itself, or the file a Rollout View shows). */
function sourceOf(deps: HotStepDeps, editor: vscode.TextEditor): vscode.Uri | undefined {
  const uri = editor.document.uri;
  return uri.scheme === ROLLOUT_VIEW_SCHEME ? deps.views.hitAt(uri, editor.document.lineCount)?.source : uri;
}

async function locate(deps: HotStepDeps, editor: vscode.TextEditor): Promise<Located[]> {
  const source = sourceOf(deps, editor);
  if (!source) return [];
  const hot = await deps.heat.hotSteps(source);
  const uri = editor.document.uri;
  if (uri.scheme === ROLLOUT_VIEW_SCHEME) {
    const layout = deps.views.layout(uri);
    if (!layout) return [];
    const byKey = new Map(hot.map((h) => [`${h.rolloutId}:${h.step}`, h]));
    return layout.rollouts.flatMap((placed) => placed.steps.flatMap((s) => {
      const h = byKey.get(`${placed.rolloutId}:${s.step}`);
      return h ? [{ hot: h, range: new vscode.Range(s.headerLine, 0, s.headerLine, 0) }] : [];
    }));
  }
  const index = deps.store.get(uri)?.index;
  if (!index) return [];
  return hot.flatMap((h) => {
    const rollout = index.byRolloutId(h.rolloutId);
    const span = rollout?.rawSteps?.[h.step];
    return rollout && span ? [{ hot: h, range: new vscode.Range(rollout.line - 1, span.start, rollout.line - 1, span.end) }] : [];
  }).sort((a, b) => a.range.start.compareTo(b.range.start));
}

function reveal(editor: vscode.TextEditor, range: vscode.Range): void {
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** Moves to the next (1) or previous (-1) hot step from the selection, wrapping around. */
export async function goToHotStep(deps: HotStepDeps, direction: 1 | -1): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  const located = await locate(deps, editor);
  if (located.length === 0) return void showInfo(NONE);
  const at = editor.selection.start;
  const next = direction === 1
    ? located.find((l) => l.range.start.isAfter(at)) ?? located[0]
    : [...located].reverse().find((l) => l.range.start.isBefore(at)) ?? located[located.length - 1];
  if (next) reveal(editor, next.range);
}

/** The step's figure in words, for the list. */
export function hotStepLabel(hot: HotStep): string {
  const figure = hot.measure === 'logprob' ? 'mean log-probability' : 'mean entropy';
  return `Rollout ${hot.rolloutId + 1}, step ${hot.step + 1}: ${figure} ${hot.mean.toFixed(3).replace(/^-/, '−')}`;
}

/** Lists the hot steps to pick one from. */
export async function listHotSteps(deps: HotStepDeps): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  const located = await locate(deps, editor);
  if (located.length === 0) return void showInfo(NONE);
  const picked = await vscode.window.showQuickPick(
    located.map((l) => ({ label: hotStepLabel(l.hot), description: `line ${l.range.start.line + 1}`, located: l })),
    { title: "Hot steps: the tenth of this file's steps whose tokens the policy was least sure of" },
  );
  if (picked) reveal(editor, picked.located.range);
}
