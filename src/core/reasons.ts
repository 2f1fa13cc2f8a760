/**
 * PROF reason codes in plain words, one wording for every surface (terminal report, editor
 * summaries and hovers, panels), so a rollout reads the same wherever it is shown.
 */
import type { ReasonCode } from './model';

export const REASON_LABELS: Readonly<Record<ReasonCode, string>> = {
  kept: 'kept',
  'kept-small-group': 'kept (group not larger than m)',
  'dropped-low-consistency': 'dropped: correct, steps least trusted',
  'dropped-conflict': 'dropped: incorrect, steps most trusted',
  'dropped-step-penalty': 'dropped: step-count penalty',
  'dropped-random': 'dropped: incorrect, random (POS)',
  'dropped-group-too-small': 'dropped: group not larger than remove',
  'not-ranked-no-outcome': 'not ranked: outcome unknown',
  'not-ranked-non-binary': 'not ranked: reward not binary',
  'not-ranked-no-scores': 'not ranked: no step scores',
};

/** A reason code in words; an unknown code is shown as it is. */
export function reasonLabel(reason: string): string {
  return (REASON_LABELS as Record<string, string>)[reason] ?? reason;
}
