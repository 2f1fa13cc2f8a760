/**
 * The labelling commands — Mark as First Wrong Step, Mark Rollout as Sound, Clear Label — and
 * Export Labels…. Each takes its rollout from its argument (a hover link, a panel button) or, with
 * none, from the cursor in a rollout file or the Rollout View. An argument is checked before it is
 * used: it names a file PROF Lens analysed, a rollout of it and a step of that rollout.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { exportProcessBench, type ExportSource } from '../../core/labels/labelMatch';
import { sidecarPath } from '../../core/labels/labelStore';
import { formatScore } from '../../core/presentation/numbers';
import type { RolloutSummary } from '../../protocol/analysis';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import { writeProcessBenchExport } from '../../scoring/labels/labelFiles';
import { checkOutputs } from '../../scoring/output/outputFiles';
import type { AnalysisStore } from '../analysisStore';
import { commandIds } from '../commandIds';
import { showError, showInfo } from '../notify';
import { ROLLOUT_VIEW_SCHEME, type RolloutViewProvider } from '../rolloutView';
import { isLabelCommandArgs, stepCountOf, type LabelCommandArgs } from './labelArgs';
import { labelWords } from './labelFigures';
import type { LabelChange, LabelsController } from './labelsController';

/** What the commands work with. */
export interface LabelCommandDeps {
  store: Pick<AnalysisStore, 'get'>;
  views: Pick<RolloutViewProvider, 'hitAt'>;
  labels: LabelsController;
  client: Pick<AnalysisClient, 'details'>;
}

/** The rollout (and step) under the cursor of the active editor. */
function atCursor(deps: LabelCommandDeps): LabelCommandArgs | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const { document, selection } = editor;
  if (document.uri.scheme === ROLLOUT_VIEW_SCHEME) {
    const hit = deps.views.hitAt(document.uri, selection.active.line);
    return hit && { source: hit.source.toString(), rolloutId: hit.rollout.id, ...(hit.step === null ? {} : { step: hit.step }) };
  }
  const index = deps.store.get(document.uri)?.index;
  const position = { line: selection.active.line + 1, character: selection.active.character };
  const hit = index?.stepAt(position);
  if (hit) return { source: document.uri.toString(), rolloutId: hit.rollout.id, step: hit.step };
  const rollout = index?.onLine(position.line)[0];
  return rollout && { source: document.uri.toString(), rolloutId: rollout.id };
}

/** Asks which step of a rollout is the first wrong one: each with its score, the weakest named. */
async function pickStep(rollout: RolloutSummary): Promise<number | undefined> {
  const count = stepCountOf(rollout);
  if (count === 0) {
    void showInfo(`Rollout ${rollout.id + 1} (line ${rollout.line}) has no steps to mark.`);
    return undefined;
  }
  const items = Array.from({ length: count }, (_, step) => {
    const score = rollout.stepScores[step];
    const scoreText = typeof score === 'number' ? `score ${formatScore(score)}` : 'not scored';
    return { label: `Step ${step + 1}`, description: step === rollout.weakestStep?.step ? `${scoreText} · weakest` : scoreText, step };
  });
  const picked = await vscode.window.showQuickPick(items, { title: `First wrong step of rollout ${rollout.id + 1} (line ${rollout.line})`, placeHolder: 'Pick the first step that is wrong' });
  return picked?.step;
}

/** What the user's words say was done. */
function doneText(change: LabelChange, rollout: RolloutSummary): string {
  const what = change === null ? 'label cleared' : labelWords(change);
  return `rollout ${rollout.id + 1} (line ${rollout.line}): ${what}`;
}

async function label(deps: LabelCommandDeps, arg: unknown, kind: 'firstWrongStep' | 'sound' | 'clear'): Promise<void> {
  const target = isLabelCommandArgs(arg) ? arg : atCursor(deps);
  if (!target) {
    void showInfo('Put the cursor on a step of an analysed rollout first.');
    return;
  }
  const source = vscode.Uri.parse(target.source, true);
  const rollout = deps.store.get(source)?.index.byRolloutId(target.rolloutId);
  if (!rollout) {
    void showInfo('That rollout is not in an analysed file (it may have been edited since).');
    return;
  }
  let change: LabelChange;
  if (kind === 'firstWrongStep') {
    // From a row that names no step (the Rollout Explorer's context menu), the user picks the step.
    const step = target.step ?? (isLabelCommandArgs(arg) ? await pickStep(rollout) : undefined);
    if (step === undefined) {
      if (!isLabelCommandArgs(arg)) void showInfo('Put the cursor on the step to mark as the first wrong one.');
      return;
    }
    if (step >= stepCountOf(rollout)) {
      void showInfo(`Rollout ${rollout.id + 1} has no step ${step + 1}.`);
      return;
    }
    change = step;
  } else {
    change = kind === 'sound' ? -1 : null;
  }
  try {
    const path = await deps.labels.change(source, rollout.id, change);
    vscode.window.setStatusBarMessage(`PROF Lens: ${doneText(change, rollout)} · saved in ${basename(path)}`, 8_000);
  } catch (error) {
    void showError(`PROF Lens: could not label: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Rollouts whose texts are fetched together for an export. */
const EXPORT_SLICE = 200;

function exportSource(arg: unknown, deps: LabelCommandDeps): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (isLabelCommandArgs(arg)) return vscode.Uri.parse(arg.source, true);
  const target = atCursor(deps);
  if (target) return vscode.Uri.parse(target.source, true);
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri && deps.store.get(uri) ? uri : undefined;
}

/** Writes the labelled rollouts of a dump as ProcessBench-shaped JSON (never over an input file). */
async function exportLabels(deps: LabelCommandDeps, arg: unknown): Promise<void> {
  const source = exportSource(arg, deps);
  const analysis = source && deps.store.get(source);
  if (!source || !analysis) {
    void showInfo('Open an analysed rollout file first.');
    return;
  }
  const name = basename(source.fsPath);
  const store = deps.labels.sidecarOf(source)?.store;
  const ids = [...deps.labels.matchesOf(source)].filter(([, m]) => m.kind === 'labelled').map(([id]) => id).sort((a, b) => a - b);
  if (!store || ids.length === 0) {
    void showInfo(`${name} has no labelled rollouts to export.`);
    return;
  }
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.file(source.fsPath.replace(/\.[^./\\]*$/, '') + '.processbench.json'),
    filters: { JSON: ['json'] },
    title: 'Export labels as ProcessBench-shaped JSON',
  });
  if (!target) return;
  try {
    if (target.scheme !== 'file') throw new Error('choose a file on disk');
    await checkOutputs(
      [{ label: 'the rollout file', path: source.fsPath }, { label: 'its labels file', path: sidecarPath(source.fsPath) }],
      [{ label: 'the chosen file', path: target.fsPath }],
    );
    const sources: ExportSource[] = [];
    for (let start = 0; start < ids.length; start += EXPORT_SLICE) {
      for (const d of await deps.client.details(source.toString(), ids.slice(start, start + EXPORT_SLICE))) {
        sources.push({ id: `${name}:${d.line}:${d.index}`, prompt: d.prompt, response: d.response, steps: d.steps.map((s) => s.text), outcome: d.outcome });
      }
    }
    const items = exportProcessBench(store, sources);
    await writeProcessBenchExport(target.fsPath, items);
    void showInfo(`PROF Lens: exported ${items.length} labelled rollout${items.length === 1 ? '' : 's'} to ${target.fsPath}`);
  } catch (error) {
    void showError(`PROF Lens: export failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Registers the four commands; the disposables belong to the caller. */
export function registerLabelCommands(deps: LabelCommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(commandIds.markFirstWrongStep, (arg: unknown) => label(deps, arg, 'firstWrongStep')),
    vscode.commands.registerCommand(commandIds.markRolloutSound, (arg: unknown) => label(deps, arg, 'sound')),
    vscode.commands.registerCommand(commandIds.clearLabel, (arg: unknown) => label(deps, arg, 'clear')),
    vscode.commands.registerCommand(commandIds.exportLabels, (arg: unknown) => exportLabels(deps, arg)),
  ];
}
