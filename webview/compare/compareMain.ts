/**
 * The Compare view's webview: the totals, the aligned prompts with their pass rates in each dump
 * and its change (largest regression first), and for the prompt the user picks both sides'
 * rollouts side by side (answer, H, step scores, consistency, decision, suspected false positive).
 * A rollout row opens it in its file. Every text is set as text.
 */
import { COMPARE_STATE_VERSION, isCompareState, isHostToCompare, type CompareState, type CompareSubject, type CompareToHost, type HostToCompare } from '../../src/protocol/explorer';
import type { ExplorerRow } from '../../src/core/explore/explorerRow';
import type { PromptSides } from '../../src/core/compare/promptSides';
import { cellText, columnHeader, columnNames } from '../../src/core/explore/explorerColumns';
import { formatPercent, formatScore } from '../../src/core/presentation/numbers';
import { capText } from '../../src/core/presentation/capText';
import { reasonFamily } from '../../src/core/presentation/reasonWords';
import { h, replaceChildren } from '../dom';
import { HostChannel } from '../hostChannel';
import { mark, markPainted } from '../timing';

mark('script evaluated');

const channel = new HostChannel<HostToCompare, CompareToHost, CompareState>(isHostToCompare, isCompareState);
const root = document.getElementById('app') as HTMLElement;
/** Prompts listed at most; the rest are counted. */
const LISTED_PROMPTS = 2000;
const SIDE_COLUMNS = columnNames((c) => c.isInCompare === true);
/** A prompt's characters in the list: a few lines of it at half width (the title holds more). */
const PROMPT_CHARS = 140;

let subject: CompareSubject | null = null;
const sidesHolder = h('section', { className: 'sides-holder', attrs: { 'aria-live': 'polite' } });

function post(message: CompareToHost): void {
  channel.post(message);
}

function signed(delta: number | null): string {
  if (delta === null) return '—';
  const points = delta * 100;
  return `${points > 0 ? '+' : points < 0 ? '−' : '±'}${Math.abs(points).toFixed(1)} pts`;
}

function deltaClass(delta: number | null): string {
  return delta === null || Math.abs(delta) < 1e-9 ? '' : delta < 0 ? 'delta-down' : 'delta-up';
}

function totalsLine(s: CompareSubject): HTMLElement {
  const t = s.comparison.totals;
  const parts = [
    `${t.aligned.toLocaleString('en-US')} prompts in both`,
    `pass rate ${formatPercent(t.passRateA)} → ${formatPercent(t.passRateB)} (${signed(t.delta)})`,
    `${t.regressed} fell · ${t.improved} rose · ${t.unchanged} unchanged`,
    `suspected FP ${t.suspectedFalsePositivesA} → ${t.suspectedFalsePositivesB}`,
    `only in a: ${s.comparison.onlyA} · only in b: ${s.comparison.onlyB}`,
  ];
  return h('p', { className: 'totals', text: parts.join(' · ') });
}

function promptTable(s: CompareSubject): HTMLElement {
  // The change (the table's order) comes right after the prompt, and each pair of figures shares
  // one column (`a → b`), so a panel half an editor wide shows every column.
  const head = ['prompt', 'change', 'pass a → b', 'n a/b', 'best kept a/b', 'FP a/b', 'group a'];
  const rows = s.comparison.prompts.slice(0, LISTED_PROMPTS).map((p, index) => {
    const tr = h('tr', {
      className: 'prompt',
      attrs: { tabindex: '0', 'data-index': String(index) },
      children: [
        // Named by its question without the instruction every prompt of side a shares; the whole prompt is the tooltip.
        h('td', { className: 'prose-cell', text: capText((p.nameA || p.prompt).replace(/\s+/g, ' '), PROMPT_CHARS), attrs: { title: capText(p.prompt, 2000) } }),
        h('td', { className: `num ${deltaClass(p.delta)}`, text: signed(p.delta) }),
        h('td', { className: 'num', text: `${formatPercent(p.passRateA)} → ${formatPercent(p.passRateB)}` }),
        h('td', { className: 'num', text: `${p.nA}/${p.nB}` }),
        h('td', { className: 'num', text: `${formatScore(p.consistencyA)}/${formatScore(p.consistencyB)}` }),
        h('td', { className: 'num', text: `${p.suspectedFalsePositivesA}/${p.suspectedFalsePositivesB}` }),
        h('td', { className: 'group-cell', text: p.groupA, attrs: { title: `group ${p.groupA} of a, ${p.groupB} of b` } }),
      ],
    });
    const open = (): void => {
      for (const active of root.querySelectorAll('tr.prompt.active')) active.classList.remove('active');
      tr.classList.add('active');
      replaceChildren(sidesHolder, [h('p', { className: 'muted', text: 'Loading both sides…' })]);
      post({ type: 'showPrompt', index });
    };
    tr.addEventListener('click', open);
    tr.addEventListener('keydown', (event) => event.key === 'Enter' && open());
    return tr;
  });
  const more = s.comparison.prompts.length - rows.length;
  return h('div', {
    className: 'table-holder',
    children: [
      h('table', { className: 'compare-table', children: [h('thead', { children: [h('tr', { children: head.map((t) => h('th', { text: t })) })] }), h('tbody', { children: rows })] }),
      more > 0 ? h('p', { className: 'muted', text: `… and ${more.toLocaleString('en-US')} more prompts (their change is smaller)` }) : null,
    ],
  });
}

function sideTable(side: 'a' | 'b', label: string, rows: readonly ExplorerRow[]): HTMLElement {
  const body = rows.map((row) => {
    const tr = h('tr', {
      className: `rollout family-${reasonFamily(row.reason)}`,
      attrs: { tabindex: '0', title: 'Open this rollout' },
      children: SIDE_COLUMNS.map((c) => h('td', { className: `col-${c}`, text: cellText(row, c) })),
    });
    const open = (): void => post({ type: 'open', side, rolloutId: row.id });
    tr.addEventListener('click', open);
    tr.addEventListener('keydown', (event) => event.key === 'Enter' && open());
    return tr;
  });
  return h('div', {
    className: `side side-${side}`,
    children: [
      h('h3', { text: `${side} · ${label} · ${rows.length} rollout${rows.length === 1 ? '' : 's'}` }),
      h('div', { className: 'table-holder', children: [h('table', { children: [h('thead', { children: [h('tr', { children: SIDE_COLUMNS.map((c) => h('th', { text: columnHeader(c) })) })] }), h('tbody', { children: body })] })] }),
    ],
  });
}

function showSides(sides: PromptSides): void {
  if (!subject) return;
  replaceChildren(sidesHolder, [
    h('h2', { text: 'Side by side' }),
    h('div', { className: 'prose prompt-text', text: capText(sides.prompt, 4000) }),
    h('div', { className: 'sides', children: [sideTable('a', subject.labelA, sides.a), sideTable('b', subject.labelB, sides.b)] }),
  ]);
  sidesHolder.scrollIntoView({ block: 'start' });
}

function show(message: HostToCompare): void {
  switch (message.type) {
    case 'comparison':
      subject = message.subject;
      // After a reload the host compares the same two files again.
      channel.saveState({ version: COMPARE_STATE_VERSION, a: subject.a, b: subject.b });
      replaceChildren(sidesHolder, []);
      replaceChildren(root, [
        h('div', { className: 'view-header', children: [h('h1', { text: `Compare · ${subject.labelA} ↔ ${subject.labelB}` })] }),
        totalsLine(subject),
        h('p', { className: 'muted', text: 'Largest regression first. Click a prompt to see both sides\' rollouts side by side.' }),
        promptTable(subject),
        sidesHolder,
      ]);
      break;
    case 'notice':
      replaceChildren(root, [h('h1', { text: 'Compare' }), h('p', { className: 'notice', text: message.text })]);
      break;
    case 'sides':
      showSides(message.sides);
      break;
    case 'sidesFailed':
      replaceChildren(sidesHolder, [h('p', { className: 'status error', text: message.message })]);
      break;
    default: {
      const unexpected: never = message;
      void unexpected;
    }
  }
}

channel.listen((message) => {
  mark(`${message.type} received`);
  show(message);
  markPainted(`${message.type} painted`);
});
post({ type: 'ready' });
mark('ready sent');
