/**
 * The labels as the PROF panels see them: a row's badge, the dashboard's figures, the threshold in
 * words, and the group view's label buttons (run as the labelling commands, so a panel's request
 * is checked exactly as a hover link's is).
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { AnalysisSummary, RolloutSummary } from '../../protocol/analysis';
import type { DashboardLabels, LabelAction } from '../../protocol/panel';
import { commandIds } from '../commandIds';
import { readSettings } from '../settings';
import { dashboardLabels, labelBadge } from './labelFigures';
import type { LabelsController } from './labelsController';
import { shownThreshold } from './thresholdShown';

/** What a panel asks of the labels. */
export interface PanelLabels {
  badge(source: vscode.Uri, rolloutId: number): string | null;
  dashboard(source: vscode.Uri, rollouts: readonly RolloutSummary[], threshold: number): DashboardLabels | null;
  thresholdText(source: vscode.Uri, summary: Pick<AnalysisSummary, 'settings' | 'scorer'> & { threshold?: AnalysisSummary['threshold'] }, rollouts: readonly RolloutSummary[]): Promise<string>;
  apply(source: vscode.Uri, rolloutId: number, action: LabelAction, step: number | null): Promise<void>;
}

const ACTION_COMMANDS: Record<LabelAction, string> = {
  firstWrongStep: commandIds.markFirstWrongStep,
  sound: commandIds.markRolloutSound,
  clear: commandIds.clearLabel,
};

/** The panels' view of the labels controller. */
export function panelLabels(labels: LabelsController): PanelLabels {
  return {
    badge: (source, rolloutId) => labelBadge(labels.matchOf(source, rolloutId)),
    dashboard: (source, rollouts, threshold) => {
      const sidecar = labels.sidecarOf(source);
      return dashboardLabels({ file: basename(sidecar?.path ?? ''), rollouts, matches: labels.matchesOf(source), threshold, problems: sidecar?.problems ?? [] });
    },
    thresholdText: async (source, summary, rollouts) => {
      const scorers = new Set<string>();
      for (const r of rollouts) if (r.isScored) scorers.add(r.scorer);
      return shownThreshold({ summary, isGiven: readSettings(source).isThresholdGiven, scorers });
    },
    apply: async (source, rolloutId, action, step) => {
      await vscode.commands.executeCommand(ACTION_COMMANDS[action], { source: source.toString(), rolloutId, ...(step === null ? {} : { step }) });
    },
  };
}
