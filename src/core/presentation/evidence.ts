/**
 * The evidence line of a suspected false positive: the step the scorer marks low (with the
 * scorer's note on it), or how far below its peers the rollout sits. Every flag names one.
 */
import type { FalsePositive } from '../groups';
import type { ProfSettings } from '../settings';
import { formatScore } from './numbers';

/** What the evidence line needs to know about the rollout besides its flag. */
export interface EvidenceInput {
  falsePositive: FalsePositive;
  /** The scorer's note per step (a false claim, `unscored (context)`), when it has any. */
  stepNotes: readonly (string | null)[];
  /** H, the number of steps the scores cover. */
  steps: number;
}

/**
 * `step 2 of 3 scores 0.05, below 0.5 — 4 \times 12 = 58 is false (48)`, or
 * `mean step score 0.62, below the upper half of its correct group (lowest there 0.90)`; null when
 * no rule fired.
 */
export function evidenceLine(input: EvidenceInput, settings: Pick<ProfSettings, 'threshold' | 'aggregate'>): string | null {
  const evidence = input.falsePositive.evidence;
  if (!evidence) return null;
  if (evidence.lowStep) {
    const { step, score } = evidence.lowStep;
    const note = input.stepNotes[step];
    return `step ${step + 1} of ${input.steps} scores ${formatScore(score)}, below ${settings.threshold}${note ? ` — ${note}` : ''}`;
  }
  const gap = evidence.gap;
  if (!gap) return null;
  return gap.measure === 'score'
    ? `${settings.aggregate} step score ${formatScore(gap.value)}, below the upper half of its correct group (lowest there ${formatScore(gap.reference)})`
    : `consistency ${formatScore(gap.value)}, below the weakest kept correct rollout (${formatScore(gap.reference)})`;
}
