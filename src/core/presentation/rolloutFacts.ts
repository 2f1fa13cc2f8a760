/**
 * Everything a surface shows about one rollout that is derived rather than read: its low steps,
 * its weakest step, whether it was scored at all, and the evidence line of a suspected false
 * positive. Computed once where the analysis runs (and again only when a what-if re-decides).
 */
import type { FalsePositive } from '../rules/groups';
import type { ProfSettings } from '../profSettings';
import { evidenceLine } from './evidence';
import { lowStepsOf, weakestStepOf } from './stepFacts';

/** The derived facts carried in every rollout summary. */
export interface RolloutFacts {
  /** 0-based steps scoring below the threshold. */
  lowSteps: number[];
  /** The first of them, or null (the decision lines' `firstLowStep`). */
  firstLowStep: number | null;
  weakestStep: { step: number; score: number } | null;
  /** False when no scorer could score the rollout (it is then not ranked). */
  isScored: boolean;
  /** Why a suspected false positive is suspected, in one line; null when no rule fired. */
  evidence: string | null;
}

/** What the facts are derived from. */
export interface FactsInput {
  stepScores: readonly (number | null)[];
  stepNotes: readonly (string | null)[];
  isScored: boolean;
  steps: number;
  falsePositive: FalsePositive;
}

/** The facts of one rollout under `settings`. */
export function rolloutFacts(input: FactsInput, settings: Pick<ProfSettings, 'threshold' | 'aggregate'>): RolloutFacts {
  const lowSteps = input.isScored ? lowStepsOf(input.stepScores, settings.threshold) : lowStepsOf(null, settings.threshold);
  return {
    lowSteps,
    firstLowStep: lowSteps[0] ?? null,
    weakestStep: input.isScored ? weakestStepOf(input.stepScores) : null,
    isScored: input.isScored,
    evidence: evidenceLine(input, settings),
  };
}

/**
 * The same facts written onto the rollout they are derived from (`steps`: its H), as the analysis
 * does for every rollout of a dump: no input or result object per rollout, and the evidence line
 * is only worded for a rollout that has evidence.
 */
export function writeRolloutFacts(r: RolloutFacts & Omit<FactsInput, 'steps'>, steps: number, settings: Pick<ProfSettings, 'threshold' | 'aggregate'>): void {
  const lowSteps = r.isScored ? lowStepsOf(r.stepScores, settings.threshold) : lowStepsOf(null, settings.threshold);
  r.lowSteps = lowSteps;
  r.firstLowStep = lowSteps[0] ?? null;
  r.weakestStep = r.isScored ? weakestStepOf(r.stepScores) : null;
  r.evidence = r.falsePositive.evidence ? evidenceLine({ falsePositive: r.falsePositive, stepNotes: r.stepNotes, steps }, settings) : null;
}
