/**
 * The steps of a file whose tokens the policy was least sure of: the tenth of its placed steps with
 * the lowest mean log-probability (or, for a file with entropies only, the highest mean entropy),
 * at least one step, at most MAX_HOT_STEPS. Relative to the file, because what is a low
 * log-probability depends on the model and the task; the hover says so.
 */
import type { HeatMeasure, StepHeat } from './tokenHeat';

/** The most hot steps listed in one file. */
export const MAX_HOT_STEPS = 1_000;
/** The share of a file's steps listed. */
export const HOT_SHARE = 0.1;

/** A step with its heat, where it is. */
export interface HeatedStep {
  rolloutId: number;
  step: number;
  heat: StepHeat;
}

/** A listed step and the figure that listed it. */
export interface HotStep {
  rolloutId: number;
  step: number;
  measure: HeatMeasure;
  mean: number;
}

function meanOf(step: HeatedStep, measure: HeatMeasure): number | null {
  return (measure === 'logprob' ? step.heat.logprob : step.heat.entropy)?.mean ?? null;
}

/** The file's hot steps, in file order (rollout id, then step). */
export function hotSteps(steps: readonly HeatedStep[]): HotStep[] {
  const measure: HeatMeasure = steps.some((s) => s.heat.logprob) ? 'logprob' : 'entropy';
  const ranked: HotStep[] = [];
  for (const s of steps) {
    const mean = meanOf(s, measure);
    if (mean !== null) ranked.push({ rolloutId: s.rolloutId, step: s.step, measure, mean });
  }
  // Hottest first: lowest log-probability, highest entropy.
  ranked.sort((a, b) => (measure === 'logprob' ? a.mean - b.mean : b.mean - a.mean) || a.rolloutId - b.rolloutId || a.step - b.step);
  const count = Math.min(MAX_HOT_STEPS, Math.max(1, Math.ceil(ranked.length * HOT_SHARE)));
  return ranked.slice(0, count).sort((a, b) => a.rolloutId - b.rolloutId || a.step - b.step);
}
