/**
 * Hovers on steps and rollouts, in raw rollout files and in the Rollout View.
 */
import * as vscode from 'vscode';
import { DEFAULT_SETTINGS } from '../core/profSettings';
import type { RolloutSummary } from '../protocol/analysis';
import type { AnalysisStore } from './analysisStore';
import { commandIds } from './commandIds';
import { hoverMarkdown } from './hoverText';
import { ROLLOUT_VIEW_SCHEME, type RolloutViewProvider } from './rolloutView';
import { labelBadge } from './labels/labelFigures';
import { LABEL_HOVER_COMMANDS, labelHoverLines } from './labels/labelHover';
import type { LabelsController } from './labels/labelsController';
import type { HeatController } from './heat/heatController';
import { heatLines } from '../core/tokens/heatWords';

/** What hovers read of the token heat. */
export type HeatHoverSource = Pick<HeatController, 'isOn' | 'heatOf' | 'knownHotStep'>;

/** Rollout files themselves (not the Rollout View): the outline's documents. */
export const ROLLOUT_FILE_SELECTOR: vscode.DocumentSelector = [{ language: 'jsonl' }, { language: 'json' }];

/** Documents with hovers: rollout files and Rollout Views. */
export const ROLLOUT_SELECTOR: vscode.DocumentSelector = [
  { language: 'jsonl' },
  { language: 'json' },
  { scheme: ROLLOUT_VIEW_SCHEME },
];

interface Target {
  source: vscode.Uri;
  rollout: RolloutSummary;
  step: number | null;
  range?: vscode.Range;
}

/** Answers hovers from the latest analysis, never by analysing on demand. */
export class RolloutHoverProvider implements vscode.HoverProvider {
  constructor(
    private readonly store: AnalysisStore,
    private readonly views: RolloutViewProvider,
    private readonly labels?: Pick<LabelsController, 'matchOf'>,
    private readonly heat?: HeatHoverSource,
  ) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const target = document.uri.scheme === ROLLOUT_VIEW_SCHEME
      ? this.views.hitAt(document.uri, position.line)
      : this.rawTarget(document, position);
    if (!target) return undefined;
    const analysis = this.store.get(target.source);
    const group = analysis?.index.group(target.rollout.group) ?? [target.rollout];
    const labelLines = this.labels ? labelHoverLines({
      source: target.source.toString(),
      rolloutId: target.rollout.id,
      step: target.step,
      badge: labelBadge(this.labels.matchOf(target.source, target.rollout.id)),
      canLabel: target.source.scheme === 'file',
    }) : [];
    const markdown = new vscode.MarkdownString([hoverMarkdown({
      rollout: target.rollout,
      step: target.step,
      group,
      settings: analysis?.summary?.settings ?? DEFAULT_SETTINGS,
      source: target.source.toString(),
      commands: { openRollout: commandIds.openRolloutView, openGroup: commandIds.openGroupView },
      heat: await this.heatLines(target),
    }), ...labelLines].join('\n'));
    markdown.isTrusted = { enabledCommands: [commandIds.openRolloutView, commandIds.openGroupView, ...LABEL_HOVER_COMMANDS] };
    return new vscode.Hover(markdown, 'range' in target ? target.range : undefined);
  }

  /** The token heat of the step (or rollout), when the tint is on and the record carries per-token values. */
  private async heatLines(target: Target): Promise<string[]> {
    if (!this.heat?.isOn()) return [];
    try {
      const heat = (await this.heat.heatOf(target.source, [target.rollout.id])).get(target.rollout.id);
      if (!heat) return [];
      const hot = target.step === null ? null : this.heat.knownHotStep(target.source, target.rollout.id, target.step);
      return heatLines(heat, target.step, hot);
    } catch {
      // A hover is answered without heat rather than not at all.
      return [];
    }
  }

  private rawTarget(document: vscode.TextDocument, position: vscode.Position): Target | undefined {
    const analysis = this.store.get(document.uri);
    if (!analysis || analysis.version !== document.version) return undefined;
    const hit = analysis.index.stepAt({ line: position.line + 1, character: position.character });
    if (hit) {
      const range = new vscode.Range(position.line, hit.start, position.line, hit.end);
      return { source: document.uri, rollout: hit.rollout, step: hit.step, range };
    }
    // Anywhere else on a single-rollout line: the rollout as a whole.
    const onLine = analysis.index.onLine(position.line + 1);
    const only = onLine[0];
    return onLine.length === 1 && only ? { source: document.uri, rollout: only, step: null } : undefined;
  }
}
