/**
 * The group's rollouts as a table: one focusable row per rollout (Enter or a click reveals it in
 * the editor; Space shows its steps; the arrow keys move between rows), a strip of step scores,
 * the penalty badge and the decision in words. Rollout text only ever enters as text nodes.
 */
import { h, svg, svgTitle } from './dom';
import { mathText } from './math';
import { lineCell, type ViewRow } from './groupModel';
import { rolloutLocation } from '../src/core/presentation/locationWords';
import { clip, formatScore } from '../src/core/presentation/numbers';
import { outcomeLabel } from '../src/core/presentation/outcomeWords';
import { penaltyBadge, penaltyReason } from '../src/core/presentation/penaltyWords';
import { falsePositiveRulesText, reasonFamily, reasonLabel } from '../src/core/presentation/reasonWords';
import { scoreSummary } from '../src/core/presentation/stepFacts';
import type { LabelAction, WhatIfSettings } from '../src/protocol/panel';

/** What the table needs besides its rows. */
export interface TableContext {
  whatIf: WhatIfSettings;
  expanded: Set<number>;
  onReveal: (rolloutId: number) => void;
  onToggle: (rolloutId: number) => void;
  /** A label button: the host labels the rollout (absent: no label buttons). */
  onLabel?: (rolloutId: number, action: LabelAction, step: number | null) => void;
}

const COLUMNS = ['', 'Line', '', 'Answer', 'H', 'Mean · min', 'Consistency', 'Steps', 'Decision'];
/** Accessible names of the columns whose headers are short or empty. */
const COLUMN_NAMES: Record<number, string> = { 0: 'Show steps', 2: 'Outcome', 5: 'Mean and minimum step score', 7: 'Step scores' };
const NUMERIC_COLUMNS = new Set([1, 4, 5, 6]);
/** Class of each column's header, where the narrow layout (panel.css) treats the column apart. */
const COLUMN_CLASSES: Record<number, string> = { 6: 'consistency' };
/** An answer's characters in its cell: a half-width panel still has room for the decision beside it. */
const ANSWER_CHARS = 12;

/** Score → one of five colour buckets (0–0.2 … 0.8–1), or `none` for an unscored step. */
export function scoreBucket(score: number | null): string {
  if (score === null || !Number.isFinite(score)) return 'none';
  return String(Math.min(4, Math.max(0, Math.floor(score * 5))));
}

/** A strip of coloured cells, one per step; low steps (below the threshold) are outlined. */
export function scoreStrip(scores: readonly (number | null)[], lowSteps: readonly number[]): SVGElement {
  const cell = Math.max(3, Math.min(10, 150 / Math.max(1, scores.length)));
  const cells = scores.map((score, i) => svg('rect', {
    x: i * cell, y: 1, width: Math.max(1, cell - 1), height: 12,
    class: `cell b${scoreBucket(score)}${lowSteps.includes(i) ? ' low' : ''}`,
  }, [svgTitle(`step ${i + 1}: ${formatScore(score)}${lowSteps.includes(i) ? ' (low)' : ''}`)]));
  const label = scores.length === 0 ? 'no steps' : `step scores ${scores.map(formatScore).join(', ')}`;
  const width = Math.max(cell, scores.length * cell);
  // The viewBox lets a narrow panel squeeze the strip sideways (panel.css) and keep every step in it.
  return svg('svg', { class: 'strip', width, height: 14, viewBox: `0 0 ${width} 14`, preserveAspectRatio: 'none', role: 'img', 'aria-label': label }, cells);
}

function penaltyCell(view: ViewRow, whatIf: WhatIfSettings): HTMLElement {
  const steps = view.row.stepScores?.length ?? view.decision.steps;
  const reason = view.decision.penalised ? penaltyReason(steps, whatIf) : null;
  const badge = reason
    ? h('span', { className: 'badge penalty', text: penaltyBadge(steps, whatIf), attrs: { title: `step-count penalty −λ: ${reason}` } })
    : null;
  return h('td', { className: 'num steps', children: [String(steps), badge] });
}

function decisionCell(view: ViewRow): HTMLElement {
  const d = view.decision;
  const state = reasonFamily(d.reason);
  const changed = view.isChanged
    ? h('span', { className: 'badge changed', text: d.kept ? 'now kept' : 'now dropped', attrs: { title: `analysed: ${reasonLabel(view.analysed.reason)}` } })
    : null;
  const why = `suspected false positive (${falsePositiveRulesText(view.falsePositive.rules)}): ${view.facts.evidence ?? ''}`;
  const suspect = view.falsePositive.suspected
    ? h('span', { className: 'badge suspect', text: '⚠ false positive?', attrs: { title: why, 'aria-label': why } })
    : null;
  const label = view.row.label ? h('span', { className: 'badge label', text: view.row.label, attrs: { title: 'your label (kept beside the file)' } }) : null;
  return h('td', { className: `decision ${state}`, children: [h('span', { className: 'reason', text: reasonLabel(d.reason) }), changed, suspect, label] });
}

/** `line 12`, or `line 12, response 4 of 16` on a grouped line. */
function placeOf(view: ViewRow): string {
  return rolloutLocation({ line: view.row.line, index: view.row.index, count: view.responsesOnLine });
}

function rowLabel(view: ViewRow): string {
  const { word } = outcomeLabel(view.row.outcome);
  const where = placeOf(view);
  const notes = [
    view.decision.penalised ? 'step-count penalty' : null,
    view.falsePositive.suspected ? 'suspected false positive' : null,
    view.isChanged ? 'changed by what-if' : null,
    view.row.label ?? null,
  ].filter((n): n is string => n !== null);
  return `${where}: ${word}, ${reasonLabel(view.decision.reason)}${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

function toggleButton(view: ViewRow, context: TableContext): HTMLElement {
  const isOpen = context.expanded.has(view.row.id);
  const button = h('button', {
    className: 'toggle',
    text: isOpen ? '▾' : '▸',
    attrs: { type: 'button', 'aria-expanded': String(isOpen), 'aria-label': `${isOpen ? 'Hide' : 'Show'} the steps of ${placeOf(view)}`, tabindex: '-1' },
  });
  button.addEventListener('click', (event) => {
    event.stopPropagation();
    context.onToggle(view.row.id);
  });
  return button;
}

function rolloutRow(view: ViewRow, context: TableContext): HTMLTableRowElement {
  const { row, decision } = view;
  const outcome = outcomeLabel(row.outcome);
  const summary = scoreSummary(row.stepScores);
  const cell = lineCell(row, view.responsesOnLine);
  const where = cell.response === null ? [cell.line] : [cell.line, h('span', { className: 'muted response-of', text: cell.response })];
  const tr = h('tr', {
    className: `rollout${view.isChanged ? ' changed' : ''}`,
    attrs: { 'data-rollout': String(row.id), 'aria-label': rowLabel(view) },
    children: [
      h('td', { children: [toggleButton(view, context)] }),
      h('td', { className: 'num', children: where, attrs: { title: cell.title } }),
      h('td', { className: `outcome ${row.outcome}`, text: outcome.symbol, attrs: { title: outcome.word } }),
      h('td', { className: 'answer', text: clip(row.extracted, ANSWER_CHARS), attrs: { title: row.extracted ?? '' } }),
      penaltyCell(view, context.whatIf),
      h('td', { className: 'num', children: [
        formatScore(summary.mean), ' · ',
        h('span', { className: view.facts.lowSteps.length > 0 ? 'low' : '', text: formatScore(summary.min) }),
      ] }),
      h('td', { className: 'num consistency', text: formatScore(decision.consistency) }),
      h('td', { className: 'strip-cell', children: [row.stepScores ? scoreStrip(row.stepScores, view.facts.lowSteps) : h('span', { className: 'muted', text: 'unscored' })] }),
      decisionCell(view),
    ],
  });
  tr.addEventListener('click', () => context.onReveal(row.id));
  tr.addEventListener('keydown', (event) => onRowKey(event, tr, () => context.onReveal(row.id), () => context.onToggle(row.id)));
  return tr;
}

function onRowKey(event: KeyboardEvent, tr: HTMLTableRowElement, reveal: () => void, toggle: () => void): void {
  const move = (next: Element | null): void => {
    if (next instanceof HTMLTableRowElement && next.classList.contains('rollout')) next.focus();
  };
  switch (event.key) {
    case 'Enter':
      reveal();
      break;
    case ' ':
      toggle();
      break;
    case 'ArrowDown':
      move(nextRolloutRow(tr, 1));
      break;
    case 'ArrowUp':
      move(nextRolloutRow(tr, -1));
      break;
    default:
      return;
  }
  event.preventDefault();
}

function nextRolloutRow(tr: HTMLTableRowElement, direction: 1 | -1): Element | null {
  let next = direction > 0 ? tr.nextElementSibling : tr.previousElementSibling;
  while (next && !next.classList.contains('rollout')) next = direction > 0 ? next.nextElementSibling : next.previousElementSibling;
  return next;
}

/** "… steps 16–29 not shown": a long rollout's gap, said where it is. */
function gapItem(from: number, to: number): HTMLElement {
  const which = from === to ? `step ${from + 1}` : `steps ${from + 1}–${to + 1}`;
  return h('li', { className: 'step gap muted', attrs: { 'aria-label': `${which} not shown` }, text: `… ${which} not shown here: the Rollout View shows every step` });
}

/** A small button that labels the rollout, never reaching the row's own click (reveal). */
function labelButton(text: string, ariaLabel: string, run: () => void): HTMLElement {
  const button = h('button', { className: 'label-action link', text, attrs: { type: 'button', 'aria-label': ariaLabel } });
  button.addEventListener('click', (event) => {
    event.stopPropagation();
    run();
  });
  return button;
}

/** The row's label actions: sound, clear. */
function labelBar(view: ViewRow, onLabel: NonNullable<TableContext['onLabel']>): HTMLElement {
  const id = view.row.id;
  const where = placeOf(view);
  return h('div', {
    className: 'label-bar',
    children: [
      h('span', { className: 'muted', text: view.row.label ? `${view.row.label} · ` : 'Label: ' }),
      labelButton('Mark Rollout as Sound', `Mark the rollout on ${where} as sound`, () => onLabel(id, 'sound', null)),
      view.row.label ? ' · ' : null,
      view.row.label ? labelButton('Clear Label', `Clear the label of the rollout on ${where}`, () => onLabel(id, 'clear', null)) : null,
    ],
  });
}

function stepsRow(view: ViewRow, onLabel?: TableContext['onLabel']): HTMLTableRowElement {
  const items: HTMLElement[] = [];
  let next = 0;
  for (const step of view.row.steps) {
    if (step.index > next) items.push(gapItem(next, step.index - 1));
    const score = view.row.stepScores?.[step.index] ?? null;
    const isLow = view.facts.lowSteps.includes(step.index);
    // Set as text, never as markup: a note can hold a critic's words about file text.
    const note = view.row.stepNotes[step.index];
    items.push(h('li', {
      className: isLow ? 'step low' : 'step',
      attrs: { value: String(step.index + 1) },
      children: [
        h('div', { className: 'step-head', children: [
          `Step ${step.index + 1} · score ${formatScore(score)}${isLow ? ' — low' : ''}${note ? ` · ${note}` : ''}`,
          onLabel ? ' ' : null,
          onLabel ? labelButton('Mark as First Wrong Step', `Mark step ${step.index + 1} of ${placeOf(view)} as the first wrong step`, () => onLabel(view.row.id, 'firstWrongStep', step.index)) : null,
        ] }),
        mathText(step.text, 'prose step-text'),
      ],
    }));
    next = step.index + 1;
  }
  if (view.row.stepCount > next && view.row.steps.length > 0) items.push(gapItem(next, view.row.stepCount - 1));
  const list = items.length ? h('ol', { className: 'steps', children: items }) : h('p', { className: 'muted', text: 'No steps.' });
  // What a narrow panel leaves out of the row (its consistency, the decision's full words) is said here.
  const facts = h('p', { className: 'row-facts muted', text: `${reasonLabel(view.decision.reason)} · consistency ${formatScore(view.decision.consistency)} · ${view.row.stepCount} step${view.row.stepCount === 1 ? '' : 's'}` });
  return h('tr', { className: 'steps-row', children: [h('td', { attrs: { colspan: String(COLUMNS.length) }, children: [facts, onLabel ? labelBar(view, onLabel) : null, list] })] });
}

/** The table of a group's rollouts in PROF's order. */
export function groupTable(rows: readonly ViewRow[], context: TableContext): HTMLTableElement {
  const head = h('thead', { children: [h('tr', { children: COLUMNS.map((c, i) => h('th', { text: c, className: [NUMERIC_COLUMNS.has(i) ? 'num' : '', COLUMN_CLASSES[i] ?? ''].join(' ').trim(), attrs: { scope: 'col', ...(COLUMN_NAMES[i] ? { 'aria-label': COLUMN_NAMES[i] as string, title: COLUMN_NAMES[i] as string } : {}) } })) })] });
  const body = h('tbody');
  for (const view of rows) {
    body.appendChild(rolloutRow(view, context));
    if (context.expanded.has(view.row.id)) body.appendChild(stepsRow(view, context.onLabel));
  }
  // One tab stop for the whole table (the focused row, else the first); arrows move within it.
  const rolloutRows = [...body.querySelectorAll<HTMLTableRowElement>('tr.rollout')];
  rolloutRows.forEach((tr, i) => {
    tr.tabIndex = i === 0 ? 0 : -1;
    tr.addEventListener('focus', () => rolloutRows.forEach((other) => (other.tabIndex = other === tr ? 0 : -1)));
  });
  return h('table', { className: 'rollouts', attrs: { 'aria-label': 'Rollouts of the group, most trusted first within correct and incorrect' }, children: [head, body] });
}
