/**
 * A rule choice in words, for the lines that say under which rule a decision was made. PROF, the
 * default, says nothing more than its settings always did.
 */
import type { ProfSettings } from '../profSettings';
import { chosenRule } from './registry';

/** `rule: gfpo (GFPO) num_remains_in_group=4 group_filter_func=length`, or null for PROF. */
export function ruleLine(settings: Pick<ProfSettings, 'curation'>): string | null {
  const { rule, params } = chosenRule(settings);
  if (rule.name === 'prof') return null;
  const values = rule.params.map((p) => `${p.name}=${params[p.name] === null ? 'unset' : String(params[p.name])}`);
  return `rule: ${rule.name} (${rule.title})${values.length ? ` ${values.join(' ')}` : ''}`;
}
