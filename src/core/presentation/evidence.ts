/**
 * The evidence line of a suspected false positive: the step the scorer marks low (with the
 * scorer's note on it), or how far below its peers the rollout sits. Every flag names one.
 */
import type { FalsePositive } from '../rules/groups';
import type { ProfSettings } from '../profSettings';
import { formatScoreBeside, formatScoresApart } from './numbers';

/** What the evidence line needs to know about the rollout besides its flag. */
export interface EvidenceInput {
  falsePositive: FalsePositive;
  /** The scorer's note per step (a false claim, `unscored (context)`), when it has any. */
  stepNotes: readonly (string | null)[];
  /** H, the number of steps the scores cover. */
  steps: number;
}

/**
 * `step 2 of 3 scores 0.05, below 0.5 — 4 \times 12 = 58 is false (48)` (the weakest step, and the
 * first one below the threshold when that is another: `weakest step 4 of 5 scores 0.17, below 0.5 —
 * …; first below: step 1 (0.39)`), or `mean step score 0.62, below the upper half of its correct
 * group (lowest there 0.90)`; null when no rule fired. Scores beside the threshold are shown with
 * the digits it takes never to contradict it (`0.4999, below 0.5`).
 */
export function evidenceLine(input: EvidenceInput, settings: Pick<ProfSettings, 'threshold' | 'aggregate'>): string | null {
  const evidence = input.falsePositive.evidence;
  if (!evidence) return null;
  if (evidence.lowStep) {
    const first = evidence.lowStep;
    const weakest = evidence.weakestStep ?? first;
    const note = input.stepNotes[weakest.step];
    const beside = (score: number): string => formatScoreBeside(score, settings.threshold);
    const which = weakest.step === first.step ? 'step' : 'weakest step';
    const line = `${which} ${weakest.step + 1} of ${input.steps} scores ${beside(weakest.score)}, below ${settings.threshold}${note ? ` — ${note}` : ''}`;
    return weakest.step === first.step ? line : `${line}; first below: step ${first.step + 1} (${beside(first.score)})`;
  }
  const gap = evidence.gap;
  if (!gap) return null;
  const [value, reference] = formatScoresApart(gap.value, gap.reference);
  return gap.measure === 'score'
    ? `${settings.aggregate} step score ${value}, below the upper half of its correct group (lowest there ${reference})`
    : `consistency ${value}, below the weakest kept correct rollout (${reference})`;
}
