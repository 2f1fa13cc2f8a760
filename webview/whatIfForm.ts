/**
 * Reading the what-if controls: text as the user typed it → settings, or which fields are wrong.
 * Pure, so the rules are tested without a browser.
 */
import type { WhatIfSettings } from '../src/protocol/panel';
import { VARIANTS } from '../src/core/profSettings';
import { parseRuleParam, RULE_NAMES, ruleNamed, withDefaults } from '../src/core/rules/registry';
import type { ParamValue, RuleParams } from '../src/core/rules/rule';

/** The controls' raw values, by name. */
export interface WhatIfFields {
  /** `keep` (m) or `remove` (R). */
  mode: string;
  count: string;
  lambda: string;
  maxSteps: string;
  penalty: string;
  variant: string;
  seed: string;
  aggregate: string;
  /** The curation rule (`prof`, `grpo` …). */
  rule: string;
}

/** Settings when every field is valid, else the names of the invalid fields. */
export type WhatIfParse = { ok: true; settings: WhatIfSettings } | { ok: false; invalid: (keyof WhatIfFields)[] };

function integer(text: string, min: number): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) && value >= min ? value : null;
}

function nonNegative(text: string): number | null {
  const trimmed = text.trim();
  if (!/^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value >= 0 ? value : null;
}

function oneOf<T extends string>(text: string, choices: readonly T[]): T | null {
  return (choices as readonly string[]).includes(text) ? (text as T) : null;
}

/**
 * Parses the controls; m, R and the seed are integers ≥ 0, Hλ ≥ 1, λ any number ≥ 0. In remove
 * mode m is not shown, so it keeps its `previous` value.
 */
export function parseWhatIf(fields: WhatIfFields, previous: WhatIfSettings): WhatIfParse {
  const mode = oneOf(fields.mode, ['keep', 'remove'] as const);
  const count = integer(fields.count, 0);
  const lambda = nonNegative(fields.lambda);
  const maxSteps = integer(fields.maxSteps, 1);
  const penalty = oneOf(fields.penalty, ['card', 'reference'] as const);
  const variant = oneOf(fields.variant, VARIANTS);
  const rule = oneOf(fields.rule, RULE_NAMES);
  const seed = integer(fields.seed, 0);
  const aggregate = oneOf(fields.aggregate, ['mean', 'min', 'sum'] as const);
  const checks: [keyof WhatIfFields, unknown][] = [
    ['mode', mode], ['count', count], ['lambda', lambda], ['maxSteps', maxSteps],
    ['penalty', penalty], ['variant', variant], ['seed', seed], ['aggregate', aggregate], ['rule', rule],
  ];
  const invalid = checks.filter(([, value]) => value === null).map(([name]) => name);
  if (invalid.length > 0) return { ok: false, invalid };
  return {
    ok: true,
    settings: {
      m: mode === 'keep' ? (count as number) : previous.m,
      remove: mode === 'remove' ? (count as number) : null,
      variant: variant as WhatIfSettings['variant'],
      seed: seed as number,
      penalty: penalty as WhatIfSettings['penalty'],
      lambda: lambda as number,
      maxSteps: maxSteps as number,
      aggregate: aggregate as WhatIfSettings['aggregate'],
      // A rule keeps the parameters it was given while it stays chosen; another starts from its defaults.
      ...(rule === 'prof' ? {} : { curation: { rule: rule as string, params: previous.curation?.rule === rule ? previous.curation.params : {} } }),
    },
  };
}

/** The controls' values for some settings. */
export function fieldsOf(settings: WhatIfSettings): WhatIfFields {
  return {
    mode: settings.remove === null ? 'keep' : 'remove',
    count: String(settings.remove ?? settings.m),
    lambda: String(settings.lambda),
    maxSteps: String(settings.maxSteps),
    penalty: settings.penalty,
    variant: settings.variant,
    seed: String(settings.seed),
    aggregate: settings.aggregate,
    rule: settings.curation?.rule ?? 'prof',
  };
}

/** The raw values of a rule's parameter controls, by parameter name. */
export type RuleParamFields = Record<string, string>;

/** A rule's parameter controls' values for the parameters given (the rest at their defaults; unset as empty). */
export function paramFieldsOf(ruleName: string, given: RuleParams): RuleParamFields {
  const rule = ruleNamed(ruleName);
  if (!rule) return {};
  const params = withDefaults(rule, given);
  return Object.fromEntries(rule.params.map((p) => [p.name, params[p.name] === null || params[p.name] === undefined ? '' : String(params[p.name])]));
}

/**
 * Parses a rule's parameter controls as `--rule-param` does; an empty field is allowed only where
 * the parameter's default is unset. Only values that differ from the defaults are kept, so a rule
 * picked and left alone equals the rule picked with no parameters.
 */
export function parseRuleParams(ruleName: string, fields: RuleParamFields): { ok: true; params: RuleParams } | { ok: false; invalid: string[] } {
  const rule = ruleNamed(ruleName);
  if (!rule) return { ok: false, invalid: [] };
  const params: Record<string, ParamValue> = {};
  const invalid: string[] = [];
  for (const spec of rule.params) {
    const raw = (fields[spec.name] ?? '').trim();
    let value: ParamValue;
    if (raw === '' && spec.default === null) value = null;
    else {
      const parsed = parseRuleParam(rule, `${spec.name}=${raw}`);
      if (typeof parsed === 'string') {
        invalid.push(spec.name);
        continue;
      }
      value = parsed.value;
    }
    if (value !== spec.default) params[spec.name] = value;
  }
  return invalid.length > 0 ? { ok: false, invalid } : { ok: true, params };
}
