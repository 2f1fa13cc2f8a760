/**
 * Messages between the extension host and the Compare Rules view: the host sends every curation
 * rule's figures on one file (computed in the analysis worker, the numbers `prof-lens rules`
 * prints); the view asks to see the rollouts two rules disagree on (the Rollout Explorer opens
 * filtered to them). JSON-plain, discriminated on `type`, checked on arrival.
 */
import type { RulesFigures } from '../core/rules/compareRules';
import type { RuleParams } from '../core/rules/rule';
import { isArray, isRecord, isString, outline } from './guards';
import { message, protocol, ready, savedState, type Sent } from './messages';
import type { Guarded } from './guards';

/** What the view shows: the file, each rule's parameters as decided (defaults filled in), the figures. */
export interface RulesSubject {
  source: string;
  fileLabel: string;
  /** Per rule, the parameters it was decided with. */
  params: Record<string, RuleParams>;
  /** The rule the settings choose (what the editor's decisions use). */
  chosen: string;
  figures: RulesFigures;
}

export const rulesShown = message('fromHost', 'rules', {
  subject: outline<RulesSubject>({ source: isString, fileLabel: isString, params: isRecord, chosen: isString, figures: outline<RulesFigures>({ rules: isArray, overlaps: isArray }) }),
});
/** The host has nothing to show (the file is being analysed, or the comparison failed). */
export const rulesNotice = message('fromHost', 'notice', { text: isString });
/** Open the Rollout Explorer on the rollouts rules `a` and `b` decide differently. */
export const disagree = message('toHost', 'disagree', { a: isString, b: isString });

export const rulesProtocol = protocol(ready, disagree, rulesShown, rulesNotice);
export type HostToRules = Sent<typeof rulesProtocol, 'fromHost'>;
export type RulesToHost = Sent<typeof rulesProtocol, 'toHost'>;
export const isHostToRules = rulesProtocol.guard('fromHost');
export const isRulesToHost = rulesProtocol.guard('toHost');

/** Version of the view's saved state; another version is ignored. */
export const RULES_STATE_VERSION = 1;
/** What the view remembers across reloads: its file (compared again on restore). */
export const isRulesState = savedState(RULES_STATE_VERSION, { source: isString });
export type RulesState = Guarded<typeof isRulesState>;
