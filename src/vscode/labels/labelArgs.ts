/**
 * The labelling commands' argument, checked before use: it comes from a hover link or a panel,
 * both of which show untrusted text. Pure (no `vscode` import).
 */
import type { RolloutSummary } from '../../protocol/analysis';

/** A labelling command's argument: a rollout of an analysed file, and for a first wrong step the step (0-based). */
export interface LabelCommandArgs {
  source: string;
  rolloutId: number;
  step?: number;
}

/** Checks an argument received from a command link or a panel. */
export function isLabelCommandArgs(value: unknown): value is LabelCommandArgs {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { source, rolloutId, step } = value as Record<string, unknown>;
  const isIndex = (n: unknown): boolean => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  return typeof source === 'string' && source.length < 10_000 && isIndex(rolloutId) && (step === undefined || isIndex(step));
}

/** How many steps a rollout has, as its summary knows. */
export function stepCountOf(rollout: Pick<RolloutSummary, 'stepScores' | 'decision' | 'rawSteps'>): number {
  return Math.max(rollout.stepScores.length, rollout.rawSteps?.length ?? 0, rollout.decision.steps);
}

