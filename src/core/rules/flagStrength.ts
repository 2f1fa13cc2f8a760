/**
 * How strongly a suspected false positive's evidence speaks, in step-score units: how far its
 * weakest step falls below the threshold, how far its aggregate score falls below the upper half
 * of its correct group, how far PROF's consistency put it below the weakest kept correct rollout.
 * Flags are ranked by the largest of these over the rules the user selected, strongest first.
 */
import type { FalsePositiveRule, ProfSettings } from '../profSettings';

/** The distances behind a flag; each null when its rule did not fire (or is not selected). */
export interface FlagStrength {
  /** Threshold minus the weakest step's score (`weak-step`). */
  belowThreshold: number | null;
  /** The upper half's lowest aggregate score minus this rollout's (`bottom-half`). */
  belowUpperHalf: number | null;
  /** The weakest kept correct rollout's consistency minus this one's (`prof-dropped`). */
  belowKept: number | null;
  /** The largest of the three: what flags are ranked by. */
  value: number;
}

/** What the strength is computed from (the evidence `falsePositivesOf` found). */
export interface StrengthInput {
  weakestStep: { score: number } | null;
  upperGap: { value: number; reference: number } | null;
  keptGap: { value: number; reference: number } | null;
}

/** The strength of a flag under the selected rules. */
export function flagStrength(input: StrengthInput, settings: Pick<ProfSettings, 'threshold' | 'falsePositiveRules'>): FlagStrength {
  const selected = (rule: FalsePositiveRule): boolean => settings.falsePositiveRules.includes(rule);
  const belowThreshold = input.weakestStep && selected('weak-step') ? settings.threshold - input.weakestStep.score : null;
  const belowUpperHalf = input.upperGap && selected('bottom-half') ? input.upperGap.reference - input.upperGap.value : null;
  const belowKept = input.keptGap && selected('prof-dropped') ? input.keptGap.reference - input.keptGap.value : null;
  const value = Math.max(belowThreshold ?? 0, belowUpperHalf ?? 0, belowKept ?? 0);
  return { belowThreshold, belowUpperHalf, belowKept, value };
}

/** What ranking needs of a rollout. */
export interface RankedFlag {
  id: number;
  falsePositive: { suspected: boolean; strength: FlagStrength | null };
}

/** The suspected false positives, strongest first (file order among equals). */
export function strongestFirst<T extends RankedFlag>(rollouts: readonly T[]): T[] {
  const flagged = rollouts.filter((r) => r.falsePositive.suspected);
  return flagged.sort((a, b) => (b.falsePositive.strength?.value ?? 0) - (a.falsePositive.strength?.value ?? 0) || a.id - b.id);
}
