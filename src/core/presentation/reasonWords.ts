/**
 * PROF reason codes and false-positive rules in plain words: one wording for the terminal report,
 * the editor's summaries, hovers, CodeLens, Problems and the panels.
 */
import type { ReasonCode } from '../model';
import type { FalsePositiveRule } from '../profSettings';
import { REASON_CODES, REASON_WORDS } from '../catalogWords';

/** Every reason code's words, in the table's order of codes; each rule declares the words of its own (rules/catalog/). */
export const REASON_LABELS: Readonly<Record<ReasonCode, string>> = Object.fromEntries(REASON_CODES.map((code) => [code, REASON_WORDS[code].words])) as Record<ReasonCode, string>;

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
