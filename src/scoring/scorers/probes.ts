/**
 * The fixed rollouts PROF Lens sends on its own (never the user's data): the PRM probe scored once
 * per session to fingerprint a served model for the score cache and by the setup check, and the
 * critic's probe, a tiny solution with one planted error.
 */
import type { ScoreItem } from './scorer';

/** Short, three steps, plain arithmetic, all correct. */
export const SMOKE_ROLLOUT: ScoreItem = {
  id: 0,
  prompt: 'A box holds 12 pencils. How many pencils are in 3 boxes?',
  steps: ['Each box holds 12 pencils.', 'Three boxes hold 3 × 12 = 36 pencils.', 'The answer is \\boxed{36}.'],
};

/** The same problem with an arithmetic slip planted in step index 1: a critic should answer 1. */
export const CRITIC_PROBE: ScoreItem = {
  id: 0,
  prompt: 'A box holds 12 pencils. How many pencils are in 3 boxes?',
  steps: ['Each box holds 12 pencils.', 'Three boxes hold 3 × 12 = 38 pencils.', 'The answer is \\boxed{38}.'],
};

/** The 0-based step of `CRITIC_PROBE` that holds the planted error. */
export const CRITIC_PROBE_ERROR_STEP = 1;
