/**
 * The detectors that judge one rollout by its text alone, run in one place: the health audit
 * counts what they find per step, and a run's Explorer table keeps, per rollout, which fired.
 */
import type { Turn } from '../transcript/turns';
import type { Finding } from './healthTypes';
import { formatGamingIn } from './formatGaming';
import { garbledIn } from './garbled';
import { repetitionIn } from './repetition';
import { rewardVisibleIn } from './rewardVisible';

/** Detectors that count the rollouts showing them. */
export type FlaggedId = 'repetition' | 'format-gaming' | 'reward-visible' | 'garbled';

/** The text detectors, in the order of their bits in a run table's `health` column. */
export const FLAGGED_IDS: readonly FlaggedId[] = ['repetition', 'format-gaming', 'reward-visible', 'garbled'];

/** What each text detector finds in a response (null: nothing). */
export function findingsOf(response: string, turns: readonly Turn[] | null): [FlaggedId, Finding | null][] {
  return [
    ['repetition', repetitionIn(response)],
    ['format-gaming', formatGamingIn(response)],
    ['reward-visible', rewardVisibleIn(response, turns)],
    ['garbled', garbledIn(response)],
  ];
}

/** The detectors a response shows, as bits (bit i: `FLAGGED_IDS[i]`). */
export function flagBitsOf(response: string, turns: readonly Turn[] | null): number {
  let bits = 0;
  findingsOf(response, turns).forEach(([, f], i) => f && (bits |= 1 << i));
  return bits;
}
