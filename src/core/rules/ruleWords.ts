/**
 * A rule choice in words, for the lines that say under which rule a decision was made. PROF, the
 * default, says nothing more than its settings always did.
 */
import type { ProfSettings } from '../profSettings';
import { chosenRule, ruleNamed } from './registry';
import type { RuleParams } from './rule';

/** `rule: gfpo (GFPO) num_remains_in_group=4 group_filter_func=length`, or null for PROF. */
export function ruleLine(settings: Pick<ProfSettings, 'curation'>): string | null {
  const { rule, params } = chosenRule(settings);
  if (rule.name === 'prof') return null;
  const values = rule.params.map((p) => `${p.name}=${params[p.name] === null ? 'unset' : String(params[p.name])}`);
  return `rule: ${rule.name} (${rule.title})${values.length ? ` ${values.join(' ')}` : ''}`;
}

/** A rule by its name with the parameters given to it: `gfpo (num_remains_in_group=4)`, `prof`. */
export function ruleWithParams(name: string, params: RuleParams | undefined): string {
  const given = Object.entries(params ?? {}).filter(([k]) => ruleNamed(name)?.params.some((p) => p.name === k));
  return given.length === 0 ? name : `${name} (${given.map(([k, v]) => `${k}=${v === null ? 'unset' : String(v)}`).join(', ')})`;
}

/** The rollouts two rules decide differently, as a filter's words: `prof ≠ grpo (kept by one, dropped by the other)`. */
export function disagreementText(d: { a: string; b: string; params: Readonly<Record<string, RuleParams>> }): string {
  return `${ruleWithParams(d.a, d.params[d.a])} ≠ ${ruleWithParams(d.b, d.params[d.b])} (kept by one, dropped by the other)`;
}

/** Where ties decided a keep (`groupsTieBroken`), in words: the CLI's `rules` and the Compare Rules view. */
export function tieText(groups: number): string {
  return `tie broken by file order in ${groups} group${groups === 1 ? '' : 's'}`;
}
