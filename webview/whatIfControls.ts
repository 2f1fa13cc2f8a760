/**
 * The what-if controls (toolkit text fields and dropdowns): every change is parsed at once and,
 * when valid, handed to the view, which decides the group again. An invalid field is marked and
 * the last valid settings stay in force.
 */
import { h } from './dom';
import { fieldsOf, paramFieldsOf, parseRuleParams, parseWhatIf, type RuleParamFields, type WhatIfFields } from './whatIfForm';
import type { WhatIfSettings } from '../src/protocol/panel';
import { REFERENCE_MAX_STEPS } from '../src/core/rules/profMath';
import { penaltyZonesText } from '../src/core/presentation/penaltyWords';
import { RULES, ruleNamed } from '../src/core/rules/registry';
import type { RuleParam } from '../src/core/rules/rule';

/** What the controls start from and report to. */
export interface WhatIfOptions {
  current: WhatIfSettings;
  onChange: (settings: WhatIfSettings) => void;
  onReset: () => void;
}

type ValueElement = HTMLElement & { value: string };

const CHOICES: Partial<Record<keyof WhatIfFields, [string, string][]>> = {
  mode: [['keep', 'keep m'], ['remove', 'remove R']],
  penalty: [['card', 'card: H ≤ 1 or H ≥ Hλ'], ['reference', `reference: ${penaltyZonesText({ penalty: 'reference', maxSteps: REFERENCE_MAX_STEPS })}`]],
  variant: [['both', 'BOTH (rank incorrect too)'], ['pos', 'POS (incorrect at random)']],
  aggregate: [['mean', 'mean'], ['min', 'min'], ['sum', 'sum']],
  rule: RULES.map((r): [string, string] => [r.name, r.title]),
};

const LABELS: Record<keyof WhatIfFields, string> = {
  mode: 'Filter by',
  count: 'm',
  lambda: 'λ',
  maxSteps: 'Hλ',
  penalty: 'Penalty rule',
  variant: 'Variant',
  seed: 'Seed',
  aggregate: 'Aggregation',
  rule: 'Curation rule',
};

const HINTS: Partial<Record<keyof WhatIfFields, string>> = {
  count: 'rollouts kept per group (an integer ≥ 0)',
  lambda: 'consistency subtracted from a penalised rollout (a number ≥ 0)',
  maxSteps: 'step count from which the card rule penalises (an integer ≥ 1)',
  seed: 'seed of the POS variant’s random draw (an integer ≥ 0)',
};

function control(name: keyof WhatIfFields, value: string): ValueElement {
  const choices = CHOICES[name];
  if (choices) {
    const options = choices.map(([v, text]) => h('vscode-option', { text, attrs: { value: v, ...(v === value ? { selected: '' } : {}) } }));
    return h('vscode-dropdown', { attrs: { id: `whatif-${name}`, 'aria-label': LABELS[name] }, children: options }) as ValueElement;
  }
  const field = h('vscode-text-field', {
    text: LABELS[name],
    attrs: { id: `whatif-${name}`, value, size: '5', inputmode: name === 'lambda' ? 'decimal' : 'numeric', 'aria-label': `${LABELS[name]}: ${HINTS[name] ?? ''}`, title: HINTS[name] ?? '' },
  }) as ValueElement;
  field.value = value;
  return field;
}

type Controls = Map<keyof WhatIfFields, ValueElement>;

const NAMES = Object.keys(LABELS) as (keyof WhatIfFields)[];

function read(controls: Controls): WhatIfFields {
  return Object.fromEntries(NAMES.map((n) => [n, controls.get(n)?.value ?? ''])) as unknown as WhatIfFields;
}

/** The count field is m or R depending on the mode; the seed only matters for POS. */
function reflectModes(controls: Controls, fields: Pick<WhatIfFields, 'mode' | 'variant'>): void {
  const count = controls.get('count') as ValueElement;
  count.textContent = fields.mode === 'remove' ? 'R' : 'm';
  count.setAttribute('aria-label', fields.mode === 'remove' ? 'R: rollouts removed per group' : `m: ${HINTS.count}`);
  controls.get('seed')?.toggleAttribute('disabled', fields.variant !== 'pos');
}

/** One control per parameter of the rule picked, by its reference name, with its words as the hint. */
function paramControl(spec: RuleParam, value: string): ValueElement {
  const id = `whatif-param-${spec.name}`;
  const choices = spec.kind === 'boolean' ? ['true', 'false'] : spec.kind === 'choice' ? [...(spec.choices ?? [])] : null;
  const hint = `${spec.words} (${spec.kind === 'count' ? `an integer ≥ 0${spec.default === null ? ', empty: unset' : ''}` : spec.kind === 'fraction' ? 'a number from 0 to 1' : 'a choice'})`;
  if (choices) {
    const options = choices.map((v) => h('vscode-option', { text: v, attrs: { value: v, ...(v === value ? { selected: '' } : {}) } }));
    const dropdown = h('vscode-dropdown', { attrs: { id, 'aria-label': `${spec.name}: ${hint}`, title: hint, 'data-param': spec.name }, children: options }) as ValueElement;
    return dropdown;
  }
  const field = h('vscode-text-field', {
    attrs: { id, value, size: '5', inputmode: spec.kind === 'fraction' ? 'decimal' : 'numeric', 'aria-label': `${spec.name}: ${hint}`, title: hint, 'data-param': spec.name, ...(spec.default === null ? { placeholder: 'unset' } : {}) },
  }) as ValueElement;
  field.value = value;
  return field;
}

/** The picked rule's parameter controls (rebuilt when another rule is picked). */
class ParamControls {
  readonly element = h('div', { className: 'controls rule-params', attrs: { 'aria-label': 'Parameters of the curation rule picked' } });
  private rule = '';
  private controls = new Map<string, ValueElement>();
  private values = new Map<string, string>();

  constructor(private readonly onInput: () => void) {}

  /** Shows `ruleName`'s parameters at `fields` (no-op when it is already shown). */
  show(ruleName: string, fields: RuleParamFields): void {
    if (ruleName === this.rule) return;
    this.rule = ruleName;
    const specs = ruleNamed(ruleName)?.params ?? [];
    this.controls = new Map(specs.map((spec) => [spec.name, paramControl(spec, fields[spec.name] ?? '')] as const));
    // A control just made has no value until the toolkit upgrades it: its value is kept here from
    // what it was made with, and from each of its events after that.
    this.values = new Map(specs.map((spec) => [spec.name, fields[spec.name] ?? '']));
    for (const [name, element] of this.controls) {
      const changed = (): void => {
        this.values.set(name, element.value ?? '');
        this.onInput();
      };
      element.addEventListener('input', changed);
      element.addEventListener('change', changed);
    }
    const title = ruleNamed(ruleName)?.title ?? ruleName;
    this.element.replaceChildren(
      h('span', { className: 'rule-params-title', text: `${title} parameters` }),
      ...specs.map((spec) => h('label', { className: 'control', children: [h('span', { className: 'control-label', text: spec.name }), this.controls.get(spec.name) as HTMLElement] })),
    );
    this.element.hidden = specs.length === 0;
  }

  read(): RuleParamFields {
    return Object.fromEntries(this.values);
  }

  mark(invalid: readonly string[]): void {
    for (const [name, element] of this.controls) element.toggleAttribute('aria-invalid', invalid.includes(name));
  }
}

function layout(controls: Controls, reset: HTMLElement, params: HTMLElement): HTMLElement {
  const groups = NAMES.map((name) => (CHOICES[name]
    ? h('label', { className: 'control', children: [h('span', { className: 'control-label', text: LABELS[name] }), controls.get(name) as HTMLElement] })
    : h('div', { className: 'control', children: [controls.get(name) as HTMLElement] })));
  return h('section', {
    className: 'what-if',
    attrs: { 'aria-label': 'What if: change the filter settings for this panel (the file is not changed)' },
    children: [h('h2', { text: 'What if' }), h('div', { className: 'controls', children: [...groups, reset] }), params],
  });
}

/** Builds the controls; they call back on every valid change. */
export function whatIfControls(options: WhatIfOptions): HTMLElement {
  const values = fieldsOf(options.current);
  let last = options.current;
  const controls: Controls = new Map(NAMES.map((name) => [name, control(name, values[name])] as const));
  const update = (): void => {
    const fields = read(controls);
    reflectModes(controls, fields);
    // Another rule starts from its defaults; the rule in force keeps the parameters it was given.
    params.show(fields.rule, paramFieldsOf(fields.rule, last.curation?.rule === fields.rule ? last.curation.params : {}));
    const parsed = parseWhatIf(fields, last);
    const given = parseRuleParams(fields.rule, params.read());
    for (const [name, element] of controls) element.toggleAttribute('aria-invalid', !parsed.ok && parsed.invalid.includes(name));
    params.mark(given.ok ? [] : given.invalid);
    if (!parsed.ok || !given.ok) return;
    const settings = parsed.settings.curation ? { ...parsed.settings, curation: { rule: parsed.settings.curation.rule, params: given.params } } : parsed.settings;
    last = settings;
    options.onChange(settings);
  };
  const params = new ParamControls(update);
  params.show(values.rule, paramFieldsOf(values.rule, options.current.curation?.params ?? {}));
  for (const element of controls.values()) {
    element.addEventListener('input', update);
    element.addEventListener('change', update);
  }
  reflectModes(controls, values);
  const reset = h('vscode-button', { text: 'Reset to settings', attrs: { id: 'whatif-reset', appearance: 'secondary', title: 'Back to the values the file was analysed with' } });
  reset.addEventListener('click', () => options.onReset());
  return layout(controls, reset, params.element);
}
