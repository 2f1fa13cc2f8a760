/**
 * The threshold an analysis used, in the words every surface uses (`thresholdText`): where the
 * analysis says where it came from, that; else the user's (`as given`), the checker's own scale,
 * or an uncalibrated default for any other scorer. Pure (no `vscode` import).
 */
import { chooseThreshold } from '../../core/evaluation/thresholdChoice';
import { thresholdText } from '../../core/evaluation/thresholdWords';
import type { AnalysisSummary } from '../../protocol/analysis';

export interface ShownThresholdInput {
  summary: Pick<AnalysisSummary, 'settings' | 'scorer'> & { threshold?: AnalysisSummary['threshold'] };
  /** The user set the threshold in the settings. */
  isGiven: boolean;
  /** What scored the rollouts (`file`, `checker`, a model), one entry per rollout or per kind. */
  scorers: Iterable<string>;
}

/** `threshold 0.5 (uncalibrated)`, `threshold 0.31, calibrated on …`, `threshold 0.4 (as given)`, `threshold 0.5`. */
export function shownThreshold({ summary, isGiven, scorers }: ShownThresholdInput): string {
  if (summary.threshold) return thresholdText(summary.threshold);
  const value = summary.settings.threshold;
  // The checker's two levels are its own scale; scores from the file or a model are not (auto falls back per rollout).
  let isChecker = summary.scorer.kind === 'checker';
  for (const scorer of scorers) if (scorer !== 'checker') isChecker = false;
  return thresholdText(chooseThreshold({ given: isGiven ? value : null, fallback: value, identity: null, isChecker, calibrations: new Map() }));
}
