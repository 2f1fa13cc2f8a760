/**
 * The what-if controls (toolkit text fields and dropdowns): every change is parsed at once and,
 * when valid, handed to the view, which decides the group again. An invalid field is marked and
 * the last valid settings stay in force.
 */
import { h } from './dom';
import { fieldsOf, parseWhatIf, type WhatIfFields } from './whatIfForm';
import type { WhatIfSettings } from '../src/protocol/panel';
import { REFERENCE_MAX_STEPS } from '../src/core/rules/profMath';
import { penaltyZonesText } from '../src/core/presentation/penaltyWords';
import { RULES } from '../src/core/rules/registry';

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

function layout(controls: Controls, reset: HTMLElement): HTMLElement {
  const groups = NAMES.map((name) => (CHOICES[name]
    ? h('label', { className: 'control', children: [h('span', { className: 'control-label', text: LABELS[name] }), controls.get(name) as HTMLElement] })
    : h('div', { className: 'control', children: [controls.get(name) as HTMLElement] })));
  return h('section', {
    className: 'what-if',
    attrs: { 'aria-label': 'What if: change the filter settings for this panel (the file is not changed)' },
    children: [h('h2', { text: 'What if' }), h('div', { className: 'controls', children: [...groups, reset] })],
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
    const parsed = parseWhatIf(fields, last);
    for (const [name, element] of controls) element.toggleAttribute('aria-invalid', !parsed.ok && parsed.invalid.includes(name));
    if (!parsed.ok) return;
    last = parsed.settings;
    options.onChange(parsed.settings);
  };
  for (const element of controls.values()) {
    element.addEventListener('input', update);
    element.addEventListener('change', update);
  }
  reflectModes(controls, values);
  const reset = h('vscode-button', { text: 'Reset to settings', attrs: { id: 'whatif-reset', appearance: 'secondary', title: 'Back to the values the file was analysed with' } });
  reset.addEventListener('click', () => options.onReset());
  return layout(controls, reset);
}
