/**
 * What a curation rule is (docs/curation-rules.md): which signals it reads, its parameters as its
 * reference code names them, how it decides a group, and its reason codes with their words.
 *
 * Every file is first decided by PROF (`rules/prof.ts`): that gives the figures all rules and the
 * false-positive flags read (aggregate step score, consistency, H). A rule other than PROF then
 * re-decides each group over the same columns, writing only kept/dropped, the reason and the rank.
 */
import type { ReasonCode } from '../model';
import type { RowSignals } from './profMath';

/** A signal a rule reads; `rules` names the ones a dump lacks. */
export type Signal = 'outcome' | 'step-scores' | 'reward' | 'length' | 'response-text' | 'flawed';

/** One parameter, under its reference's name. */
export interface RuleParam {
  name: string;
  kind: 'count' | 'fraction' | 'boolean' | 'choice';
  default: number | boolean | string | null;
  /** For `choice`: the values it takes. */
  choices?: readonly string[];
  words: string;
}

export type ParamValue = number | boolean | string | null;
export type RuleParams = Readonly<Record<string, ParamValue>>;

/** Outcome codes, as the table numbers them (`OUTCOME_KINDS`). */
export const CORRECT = 0;
export const INCORRECT = 1;

/** One group, positions 0 … size − 1 in file order, as a rule reads it. */
export interface RuleGroup {
  readonly size: number;
  /** The rollout's outcome code (`CORRECT`, `INCORRECT`, 2 unknown, 3 non-binary). */
  outcome(k: number): number;
  /** Its signals beyond outcome and step scores (made on request). */
  signals(k: number): RowSignals;
  /** The aggregate of its step scores, NaN when no scorer scored it. */
  score(k: number): number;
  /** The first step scoring below the low-score threshold (0-based), -1 for none or when unscored. */
  lowStep(k: number): number;
}

/**
 * Where a rule's decisions go. `rank`: 1-based within the outcome class by the rule's own order;
 * null leaves PROF's rank (a rule that does not rank keeps PROF's order for display).
 */
export interface GroupVerdicts {
  set(k: number, kept: boolean, reason: ReasonCode, rank: number | null): void;
}

/** A reason code a rule brings, with its words: declared once, here, for every surface. */
export interface ReasonDeclaration {
  code: string;
  /** What hovers, the report, the panels and the CLI say (`dropped: group accuracy outside the band`). */
  words: string;
  /** The fewest words an Explorer title or filter chip needs (`dropped, outside band`). */
  short: string;
}

/**
 * A curation rule, declared whole in one file of `rules/catalog/`; `npm run gen:catalog` lists it
 * (docs/architecture.md, "How to add a rule").
 */
export interface CurationRule {
  /** The name `--rule` and the setting take. */
  name: string;
  title: string;
  /** One line for the setting's list of choices (package.json's `enumDescriptions`). */
  summary: string;
  /** Its place in every list of rules (`prof-lens rules`, the setting, the what-if picker): lower first. */
  order: number;
  /** The reference code the rule follows, as a repository path. */
  reference: string;
  reads: readonly Signal[];
  params: readonly RuleParam[];
  /**
   * The reason codes it brings. It may also give PROF's and those an earlier rule brings; the
   * table numbers them all (`REASON_CODES`, generated).
   */
  reasons: readonly ReasonDeclaration[];
  /** Decides one group; null for PROF, whose decisions are the table's first pass. */
  decideGroup: ((group: RuleGroup, params: RuleParams, out: GroupVerdicts) => void) | null;
}

/** Marks every member of a group with one verdict. */
export function setAll(group: RuleGroup, out: GroupVerdicts, kept: boolean, reason: ReasonCode): void {
  for (let k = 0; k < group.size; k++) out.set(k, kept, reason, null);
}

/** The not-ranked reason of a member without a binary outcome, or null when it has one. */
export function notRankedOutcome(group: RuleGroup, k: number): ReasonCode | null {
  const o = group.outcome(k);
  if (o === CORRECT || o === INCORRECT) return null;
  return o === 2 ? 'not-ranked-no-outcome' : 'not-ranked-non-binary';
}

/**
 * A member's reward as a trainer would sum it: the file's number (a boolean as 1 or 0), else 1 for
 * correct and 0 for incorrect; null without a binary outcome.
 */
export function rewardOf(group: RuleGroup, k: number): number | null {
  const o = group.outcome(k);
  if (o !== CORRECT && o !== INCORRECT) return null;
  const r = group.signals(k).reward;
  if (typeof r === 'number' && Number.isFinite(r)) return r;
  if (typeof r === 'boolean') return r ? 1 : 0;
  return o === CORRECT ? 1 : 0;
}
