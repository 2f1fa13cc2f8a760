/**
 * Every command the extension contributes, declared once; a unit test checks them against
 * package.json.
 */
export const commandIds = {
  nextLowStep: 'profLens.nextLowStep',
  previousLowStep: 'profLens.previousLowStep',
  nextFalsePositive: 'profLens.nextFalsePositive',
  nextGroup: 'profLens.nextGroup',
  openRolloutView: 'profLens.openRolloutView',
  openGroupView: 'profLens.openGroupView',
  toggleDecorations: 'profLens.toggleDecorations',
  toggleTokenHeat: 'profLens.toggleTokenHeat',
  nextHotStep: 'profLens.nextHotStep',
  previousHotStep: 'profLens.previousHotStep',
  listHotSteps: 'profLens.listHotSteps',
  chooseScorer: 'profLens.chooseScorer',
  rescore: 'profLens.rescoreFile',
  cancelAnalysis: 'profLens.cancelAnalysis',
  openLargeFile: 'profLens.openLargeFile',
  showGroup: 'profLens.showGroup',
  showDashboard: 'profLens.showDashboard',
  exportKept: 'profLens.exportKept',
  exportDecisions: 'profLens.exportDecisions',
  checkSetup: 'profLens.checkSetup',
  openExample: 'profLens.openExample',
  showGpuSetup: 'profLens.showGpuSetup',
  setApiKey: 'profLens.setApiKey',
  clearApiKey: 'profLens.clearApiKey',
  analyseFile: 'profLens.analyseFile',
  openTrainingRun: 'profLens.openTrainingRun',
  openExplorer: 'profLens.openExplorer',
  openRunExplorer: 'profLens.openRunExplorer',
  openRunStep: 'profLens.openRunStep',
  compareWith: 'profLens.compareWith',
  compareRules: 'profLens.compareRules',
  markFirstWrongStep: 'profLens.markFirstWrongStep',
  markRolloutSound: 'profLens.markRolloutSound',
  clearLabel: 'profLens.clearLabel',
  exportLabels: 'profLens.exportLabels',
  revealRollout: 'profLens.revealRollout',
  filterFalsePositives: 'profLens.filterFalsePositives',
  filterDropped: 'profLens.filterDropped',
  filterUnscored: 'profLens.filterUnscored',
  clearFilter: 'profLens.clearFilter',
} as const;

/** True while the active editor shows a file PROF Lens analyses (commands and keys show only then). */
export const ROLLOUT_FILE_CONTEXT = 'profLens.isRolloutFile';

/** Arguments of the Rollout View commands when they come from a hover or CodeLens link. */
export interface RolloutTarget {
  source: string;
  rolloutId: number;
}

/** Checks an argument received from a command link. */
export function isRolloutTarget(value: unknown): value is RolloutTarget {
  if (typeof value !== 'object' || value === null) return false;
  const { source, rolloutId } = value as Record<string, unknown>;
  return typeof source === 'string' && typeof rolloutId === 'number';
}
