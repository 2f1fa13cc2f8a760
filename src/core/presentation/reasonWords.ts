/**
 * PROF reason codes and false-positive rules in plain words: one wording for the terminal report,
 * the editor's summaries, hovers, CodeLens, Problems and the panels.
 */
import type { ReasonCode } from '../model';
import type { FalsePositiveRule } from '../profSettings';

export const REASON_LABELS: Readonly<Record<ReasonCode, string>> = {
  kept: 'kept',
  'kept-small-group': 'kept (group not larger than m)',
  'dropped-low-consistency': 'dropped: correct, steps least trusted',
  'dropped-conflict': 'dropped: incorrect, steps most trusted',
  'dropped-step-penalty': 'dropped: step-count penalty',
  'dropped-random': 'dropped: incorrect, random (POS)',
  'dropped-tie': 'dropped: tied with a kept rollout; removed by file order',
  'dropped-group-too-small': 'dropped: group not larger than remove',
  'not-ranked-no-outcome': 'not ranked: outcome unknown',
  'not-ranked-non-binary': 'not ranked: reward not binary',
  'not-ranked-no-scores': 'not ranked: no step scores',
  // Curation rules other than PROF (docs/curation-rules.md).
  'kept-zero-advantage': 'kept: all rewards of its group equal (zero advantage, no gradient)',
  'kept-no-signal': 'kept: the rule\'s signal is missing for it',
  'dropped-equal-rewards': 'dropped: all rewards of its group equal',
  'dropped-outside-band': 'dropped: group accuracy outside the band',
  'dropped-ranked-out': 'dropped: not among those the rule keeps by its order',
  'dropped-flawed-positive': 'dropped: correct, but a wrong step was found (reward 1 → 0)',
};

/** A reason code in words; an unknown code is shown as it is. */
export function reasonLabel(reason: string): string {
  return (REASON_LABELS as Record<string, string>)[reason] ?? reason;
}

/** Which of four families a reason belongs to, for colours and bars. */
export type ReasonFamily = 'kept' | 'dropped' | 'tied' | 'unranked';

export function reasonFamily(reason: string): ReasonFamily {
  if (reason.startsWith('kept')) return 'kept';
  if (reason.startsWith('not-ranked')) return 'unranked';
  return reason === 'dropped-tie' ? 'tied' : 'dropped';
}

const RULE_WORDS: Readonly<Record<FalsePositiveRule, string>> = {
  'prof-dropped': 'PROF drops it',
  'weak-step': 'a step below the threshold',
  'bottom-half': 'below the upper half of its correct group',
};

/** Which false-positive rules fired, in words. */
export function falsePositiveRulesText(rules: readonly string[]): string {
  return rules.map((r) => (RULE_WORDS as Record<string, string>)[r] ?? r).join(', ');
}
