/**
 * The curation rules by name, and their parameters as a user gives them (`--rule-param k=v`, the
 * `profLens.curation` settings). Adding a rule: one file in `catalog/`, then `npm run gen:catalog`
 * (the build runs it), and its tests (docs/architecture.md, "How to add a rule").
 */
import type { ProfSettings } from '../profSettings';
import { RULE_CATALOG } from './ruleCatalog';
import type { CurationRule, ParamValue, RuleParams } from './rule';

/** Every rule, by its declared `order` (PROF first). */
export const RULES: readonly CurationRule[] = RULE_CATALOG;

export const RULE_NAMES: readonly string[] = RULES.map((r) => r.name);

export function ruleNamed(name: string): CurationRule | undefined {
  return RULES.find((r) => r.name === name);
}

/** The settings' rule (PROF when none is chosen) and its parameters with the defaults filled in. */
export function chosenRule(settings: Pick<ProfSettings, 'curation'>): { rule: CurationRule; params: RuleParams } {
  const rule = ruleNamed(settings.curation?.rule ?? 'prof') ?? (ruleNamed('prof') as CurationRule);
  return { rule, params: withDefaults(rule, settings.curation?.params ?? {}) };
}

export function withDefaults(rule: CurationRule, given: RuleParams): RuleParams {
  const params: Record<string, ParamValue> = {};
  for (const p of rule.params) params[p.name] = given[p.name] !== undefined ? (given[p.name] as ParamValue) : p.default;
  return params;
}

/** `k=v` as the rule's parameter k, or a message that says what was expected. */
export function parseRuleParam(rule: CurationRule, text: string): { name: string; value: ParamValue } | string {
  const eq = text.indexOf('=');
  const name = eq === -1 ? text : text.slice(0, eq);
  const raw = eq === -1 ? '' : text.slice(eq + 1);
  const spec = rule.params.find((p) => p.name === name);
  const known = rule.params.map((p) => p.name).join(', ') || 'none';
  if (!spec) return `rule ${rule.name} has no parameter ${JSON.stringify(name)} (its parameters: ${known})`;
  const value = paramValue(spec.kind, raw, spec.choices);
  if (value === undefined) return `${rule.name}'s ${name} must be ${expected(spec.kind, spec.choices)}, got ${JSON.stringify(raw)}`;
  return { name, value };
}

/** Problems with a rule choice (an unknown rule, a parameter it does not take or a bad value). */
export function ruleProblems(choice: ProfSettings['curation']): string[] {
  if (!choice) return [];
  const rule = ruleNamed(choice.rule);
  if (!rule) return [`unknown rule ${JSON.stringify(choice.rule)} (expected one of ${RULE_NAMES.join(', ')})`];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(choice.params)) {
    const parsed = parseRuleParam(rule, `${name}=${value === null ? '' : String(value)}`);
    if (typeof parsed === 'string' && !(value === null && rule.params.find((p) => p.name === name)?.default === null)) problems.push(parsed);
  }
  return problems;
}

function paramValue(kind: CurationRule['params'][number]['kind'], raw: string, choices?: readonly string[]): ParamValue | undefined {
  if (kind === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : undefined;
  if (kind === 'choice') return choices?.includes(raw) ? raw : undefined;
  if (raw.trim() === '') return undefined;
  const n = Number(raw);
  if (kind === 'count') return Number.isInteger(n) && n >= 0 ? n : undefined;
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined;
}

function expected(kind: CurationRule['params'][number]['kind'], choices?: readonly string[]): string {
  if (kind === 'boolean') return 'true or false';
  if (kind === 'choice') return `one of ${(choices ?? []).join(', ')}`;
  return kind === 'count' ? 'an integer ≥ 0' : 'a number from 0 to 1';
}
