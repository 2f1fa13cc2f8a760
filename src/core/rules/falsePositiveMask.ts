/**
 * The false-positive rules that fired for a rollout as bits of one number, so a report can count
 * them without the verdict object (its evidence and strength) of every flagged rollout.
 */
import type { FalsePositive } from './groups';
import type { FalsePositiveRule } from '../profSettings';

/** One bit per rule, in the order a verdict lists its rules (`FALSE_POSITIVE_RULES`). */
export const RULE_BITS: Readonly<Record<FalsePositiveRule, number>> = { 'prof-dropped': 1, 'weak-step': 2, 'bottom-half': 4 };
/** Set when a rule the settings select fired: the rollout is a suspected false positive. */
export const SUSPECTED_BIT = 8;

/** The mask of a verdict. */
export function maskOf(fp: FalsePositive): number {
  let mask = fp.suspected ? SUSPECTED_BIT : 0;
  for (const rule of fp.rules) mask |= RULE_BITS[rule];
  return mask;
}

/** Verdicts held as what they are made from, made when asked for. */
export interface DeferredFalsePositives {
  /** The mask of verdict number `at`. */
  mask(at: number): number;
  /** Verdict number `at`, as a new object. */
  make(at: number): FalsePositive;
}
