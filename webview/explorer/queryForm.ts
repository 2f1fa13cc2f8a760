/**
 * The explorer's filter controls: search (plain or RE2 pattern, over prompt and response),
 * outcome, PROF decision and reason (tied among them), suspected false positive, penalised,
 * unscored, an H range and a range on a score or reward column. The form turns into a query's
 * filter and back, so a saved or drilled-down query shows in the controls it came from.
 */
import type { ExplorerFilter, TextQuery } from '../../src/core/explore/explorerQuery';
import { columnNames, rangeSubject, type NumericColumn } from '../../src/core/explore/explorerColumns';
import type { OutcomeKind, ReasonCode } from '../../src/core/model';
import { reasonShort } from '../../src/core/explore/explorerWords';
import { FLAGGED_IDS, type FlaggedId } from '../../src/core/health/rolloutFlags';
import { DETECTOR_NAMES } from '../../src/core/health/healthTypes';
import { REASON_LABELS } from '../../src/core/presentation/reasonWords';
import { h } from '../dom';

const OUTCOMES: readonly [OutcomeKind, string][] = [['correct', '✓ correct'], ['incorrect', '✗ incorrect'], ['unknown', '? unknown'], ['non-binary', '~ not binary']];
const REASONS = Object.keys(REASON_LABELS) as ReasonCode[];
const FLAGS = ['suspectedFalsePositive', 'penalised', 'unscored'] as const;
const FLAG_LABELS: Record<(typeof FLAGS)[number], string> = { suspectedFalsePositive: 'suspected FP', penalised: 'penalised', unscored: 'unscored' };
/** The columns the range choice offers (H and a run's step have controls of their own). */
const SCORE_COLUMNS: readonly NumericColumn[] = columnNames<NumericColumn>((c) => c.kind === 'number' && c.isInForm === true);

function select(name: string, options: readonly [string, string][]): HTMLSelectElement {
  return h('select', { attrs: { name, 'aria-label': name }, children: options.map(([value, label]) => h('option', { text: label, attrs: { value } })) });
}

function numberInput(name: string, placeholder: string): HTMLInputElement {
  return h('input', { className: 'bound', attrs: { type: 'text', inputmode: 'decimal', name, 'aria-label': name, placeholder } });
}

function labelled(label: string, ...controls: HTMLElement[]): HTMLElement {
  return h('label', { className: 'filter', children: [h('span', { className: 'filter-label', text: label }), ...controls] });
}

function bound(input: HTMLInputElement): number | undefined {
  const text = input.value.trim();
  if (text === '') {
    input.removeAttribute('aria-invalid');
    return undefined;
  }
  const value = Number(text);
  if (Number.isFinite(value)) {
    input.removeAttribute('aria-invalid');
    return value;
  }
  input.setAttribute('aria-invalid', 'true');
  return undefined;
}

function yesNo(value: string): boolean | undefined {
  return value === 'yes' ? true : value === 'no' ? false : undefined;
}

/** The filter controls; `onChange` fires on every change (search text debounced by the caller). */
export class QueryForm {
  readonly element: HTMLElement;
  readonly search = h('input', { className: 'search', attrs: { type: 'search', name: 'search', 'aria-label': 'search prompt and response', placeholder: 'Search prompt and response' } });
  private readonly mode = select('search mode', [['plain', 'text'], ['regex', 'regex (RE2)']]);
  private readonly fields = select('search in', [['both', 'prompt and response'], ['response', 'response'], ['prompt', 'prompt']]);
  private readonly outcome = select('outcome', [['', 'any'], ...OUTCOMES]);
  private readonly reason = select('decision', [['', 'any'], ['kept-any', 'kept (any)'], ...REASONS.map((r): [string, string] => [r, reasonShort(r)])]);
  private readonly flags = FLAGS.map((f) => select(FLAG_LABELS[f], [['', 'any'], ['yes', 'yes'], ['no', 'no']]));
  private readonly hMin = numberInput('H at least', 'min');
  private readonly hMax = numberInput('H at most', 'max');
  private readonly scoreColumn = select('range column', SCORE_COLUMNS.map((c): [string, string] => [c, rangeSubject(c)]));
  private readonly scoreMin = numberInput('range at least', 'min');
  private readonly scoreMax = numberInput('range at most', 'max');
  /** A run's controls: the training step's range, and a health detector the rollout shows. */
  private readonly stepMin = numberInput('step at least', 'min');
  private readonly stepMax = numberInput('step at most', 'max');
  private readonly health = select('health detector', [['', 'any'], ...FLAGGED_IDS.map((id): [string, string] => [id, DETECTOR_NAMES[id]])]);
  private readonly runControls: HTMLElement[];
  private isRun = false;

  constructor(onChange: () => void, onSearchInput: () => void) {
    const clear = h('button', { className: 'secondary', text: 'Clear filters', attrs: { type: 'button' } });
    clear.addEventListener('click', () => {
      this.setFilter({});
      onChange();
    });
    this.runControls = [labelled('step', this.stepMin, this.stepMax), labelled('health', this.health)];
    for (const c of this.runControls) c.hidden = true;
    this.element = h('div', {
      className: 'filters',
      children: [
        h('div', { className: 'search-row', children: [this.search, this.mode, this.fields] }),
        h('div', {
          className: 'filter-row',
          children: [
            labelled('outcome', this.outcome),
            labelled('decision', this.reason),
            ...this.flags.map((s, i) => labelled(FLAG_LABELS[FLAGS[i]!], s)),
            labelled('H', this.hMin, this.hMax),
            labelled('range', this.scoreColumn, this.scoreMin, this.scoreMax),
            ...this.runControls,
            clear,
          ],
        }),
      ],
    });
    this.search.addEventListener('input', onSearchInput);
    this.search.addEventListener('keydown', (event) => event.key === 'Enter' && onChange());
    for (const control of [this.mode, this.fields, this.outcome, this.reason, ...this.flags, this.scoreColumn, this.health]) control.addEventListener('change', onChange);
    for (const input of [this.hMin, this.hMax, this.scoreMin, this.scoreMax, this.stepMin, this.stepMax]) input.addEventListener('change', onChange);
  }

  /** A run's table: its step range and health filter are shown. */
  setRun(isRun: boolean): void {
    this.isRun = isRun;
    for (const c of this.runControls) c.hidden = !isRun;
  }

  /** Reward columns of the file join the range's choices. */
  setRewardColumns(names: readonly string[]): void {
    const known = new Set([...this.scoreColumn.options].map((o) => o.value));
    for (const name of names) {
      const value = `reward:${name}`;
      if (!known.has(value)) this.scoreColumn.appendChild(h('option', { text: `reward ${name}`, attrs: { value } }));
    }
  }

  /** A rules' disagreement (from Compare Rules) has no control: it stays until the filters are cleared. */
  private disagree: ExplorerFilter['disagree'];

  filter(): ExplorerFilter {
    const filter: ExplorerFilter = this.disagree ? { disagree: this.disagree } : {};
    const text = this.search.value;
    if (text.trim() !== '') {
      const search: TextQuery = { text, mode: this.mode.value === 'regex' ? 'regex' : 'plain' };
      if (this.fields.value === 'prompt' || this.fields.value === 'response') search.fields = [this.fields.value];
      filter.search = search;
    }
    if (this.outcome.value) filter.outcomes = [this.outcome.value as OutcomeKind];
    if (this.reason.value === 'kept-any') filter.kept = true;
    else if (this.reason.value) filter.reasons = [this.reason.value as ReasonCode];
    FLAGS.forEach((flag, i) => {
      const value = yesNo(this.flags[i]!.value);
      if (value !== undefined) filter[flag] = value;
    });
    const ranges: NonNullable<ExplorerFilter['ranges']> = [];
    const hMin = bound(this.hMin);
    const hMax = bound(this.hMax);
    if (hMin !== undefined || hMax !== undefined) ranges.push({ column: 'steps', ...(hMin === undefined ? {} : { min: hMin }), ...(hMax === undefined ? {} : { max: hMax }) });
    const sMin = bound(this.scoreMin);
    const sMax = bound(this.scoreMax);
    if (sMin !== undefined || sMax !== undefined) ranges.push({ column: this.scoreColumn.value as NumericColumn, ...(sMin === undefined ? {} : { min: sMin }), ...(sMax === undefined ? {} : { max: sMax }) });
    const stepMin = this.isRun ? bound(this.stepMin) : undefined;
    const stepMax = this.isRun ? bound(this.stepMax) : undefined;
    if (stepMin !== undefined || stepMax !== undefined) ranges.push({ column: 'step', ...(stepMin === undefined ? {} : { min: stepMin }), ...(stepMax === undefined ? {} : { max: stepMax }) });
    if (ranges.length > 0) filter.ranges = ranges;
    if (this.isRun && this.health.value) filter.health = [this.health.value as FlaggedId];
    return filter;
  }

  /** Shows a filter in the controls (a saved or drilled-down query); what they cannot show is kept by the caller. */
  setFilter(filter: ExplorerFilter): void {
    this.disagree = filter.disagree;
    this.search.value = filter.search?.text ?? '';
    this.mode.value = filter.search?.mode ?? 'plain';
    const fields = filter.search?.fields;
    this.fields.value = fields?.length === 1 ? fields[0]! : 'both';
    this.outcome.value = filter.outcomes?.length === 1 ? filter.outcomes[0]! : '';
    this.reason.value = filter.reasons?.length === 1 ? filter.reasons[0]! : filter.kept === true ? 'kept-any' : '';
    FLAGS.forEach((flag, i) => {
      const value = filter[flag];
      this.flags[i]!.value = value === undefined ? '' : value ? 'yes' : 'no';
    });
    const steps = filter.ranges?.find((r) => r.column === 'steps');
    this.hMin.value = steps?.min === undefined ? '' : String(steps.min);
    this.hMax.value = steps?.max === undefined ? '' : String(steps.max);
    const step = filter.ranges?.find((r) => r.column === 'step');
    this.stepMin.value = step?.min === undefined ? '' : String(step.min);
    this.stepMax.value = step?.max === undefined ? '' : String(step.max);
    this.health.value = filter.health?.length === 1 ? filter.health[0]! : '';
    const other = filter.ranges?.find((r) => r.column !== 'steps' && r.column !== 'step');
    if (other?.column.startsWith('reward:')) this.setRewardColumns([other.column.slice('reward:'.length)]);
    if (other) this.scoreColumn.value = other.column;
    this.scoreMin.value = other?.min === undefined ? '' : String(other.min);
    this.scoreMax.value = other?.max === undefined ? '' : String(other.max);
  }
}
