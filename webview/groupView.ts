/**
 * The group view: the prompt (math typeset), the gold answer, the counts PROF works with, the
 * what-if controls, and the rollouts in PROF's order. A what-if change re-decides the group right
 * here and marks the rows whose decision changed.
 */
import { h, replaceChildren } from './dom';
import { answerText, mathText } from './math';
import { countGroup, isSameWhatIf, recompute, whatIfOf, type GroupCounts, type ViewRow } from './groupModel';
import { groupTable } from './groupTable';
import { whatIfControls } from './whatIfControls';
import { exportBar } from './exportBar';
import type { Channel } from './channel';
import type { GroupData, WhatIfSettings } from '../src/protocol/panel';

/** What the group view starts from and tells its owner. */
export interface GroupViewOptions {
  channel: Channel;
  data: GroupData;
  /** What-if settings restored from the saved state, or null for the analysed ones. */
  whatIf: WhatIfSettings | null;
  /** Called with the what-if settings in force (null when they equal the analysed ones). */
  onWhatIf: (whatIf: WhatIfSettings | null) => void;
}

function countItem(term: string, value: number, description: string): HTMLElement {
  return h('div', {
    className: 'count',
    attrs: { title: description },
    children: [h('dt', { text: term }), h('dd', { text: String(value), attrs: { 'aria-label': `${description}: ${value}` } })],
  });
}

function countsList(counts: GroupCounts): HTMLElement {
  const items = [
    countItem('n', counts.n, 'rollouts ranked'),
    countItem('n+', counts.nPlus, 'correct'),
    countItem('n−', counts.nMinus, 'incorrect'),
    countItem('m', counts.m, 'kept per group'),
    countItem('k+', counts.keptPlus, 'correct kept'),
    countItem('k−', counts.keptMinus, 'incorrect kept'),
  ];
  if (counts.notRanked > 0) items.push(countItem('not ranked', counts.notRanked, 'not ranked (no outcome or no scores)'));
  return h('dl', { className: 'counts', children: items });
}

function changeSummary(rows: readonly ViewRow[], isWhatIf: boolean): string {
  if (!isWhatIf) return 'Decisions as analysed.';
  const changed = rows.filter((r) => r.isChanged).length;
  return changed === 0 ? 'What-if: no decision changes.' : `What-if: ${changed} decision${changed === 1 ? '' : 's'} changed (marked).`;
}

function header(options: GroupViewOptions): HTMLElement {
  const { data, channel } = options;
  const dashboard = h('vscode-button', { text: 'File dashboard', attrs: { appearance: 'secondary', id: 'open-dashboard' } });
  dashboard.addEventListener('click', () => channel.post({ type: 'showDashboard', source: data.source }));
  return h('header', {
    className: 'view-header',
    children: [
      h('h1', { children: ['PROF group ', h('span', { className: 'group-id', text: data.groupLabel })] }),
      h('span', { className: 'muted file', text: data.fileLabel }),
      dashboard,
    ],
  });
}

function promptSection(data: GroupData): HTMLElement {
  return h('section', {
    className: 'prompt',
    attrs: { 'aria-label': 'Prompt and gold answer' },
    children: [
      h('h2', { text: 'Prompt' }),
      mathText(data.prompt, 'prose prompt-text'),
      h('p', { className: 'gold', children: [h('span', { className: 'muted', text: 'Gold answer: ' }), answerText(data.gold)] }),
    ],
  });
}

/** Renders the group view into `root`. */
export function renderGroupView(root: HTMLElement, options: GroupViewOptions): void {
  const { data, channel } = options;
  const analysed = whatIfOf(data.settings);
  let whatIf = options.whatIf ?? analysed;
  const expanded = new Set<number>();
  const counts = h('div', { className: 'counts-holder' });
  const summary = h('p', { className: 'change-summary', attrs: { role: 'status', 'aria-live': 'polite' } });
  const table = h('div', { className: 'table-holder' });
  const refresh = (): void => {
    const rows = recompute(data, whatIf);
    replaceChildren(counts, [countsList(countGroup(rows, whatIf))]);
    summary.textContent = changeSummary(rows, !isSameWhatIf(whatIf, analysed));
    const focused = document.activeElement?.getAttribute('data-rollout');
    replaceChildren(table, [groupTable(rows, {
      whatIf,
      threshold: data.settings.threshold,
      expanded,
      onReveal: (rolloutId) => channel.post({ type: 'reveal', source: data.source, rolloutId }),
      onToggle: (rolloutId) => {
        if (!expanded.delete(rolloutId)) expanded.add(rolloutId);
        refresh();
      },
    })]);
    if (focused) table.querySelector<HTMLElement>(`tr[data-rollout="${CSS.escape(focused)}"]`)?.focus();
  };
  const apply = (next: WhatIfSettings): void => {
    whatIf = next;
    options.onWhatIf(isSameWhatIf(next, analysed) ? null : next);
    refresh();
  };
  const build = (): void => {
    replaceChildren(root, [
      header(options),
      promptSection(data),
      counts,
      whatIfControls({ current: whatIf, analysed, onChange: apply, onReset: () => { apply(analysed); build(); root.querySelector<HTMLElement>('#whatif-reset')?.focus(); } }),
      summary,
      table,
      exportBar({ channel, source: data.source, settings: () => (isSameWhatIf(whatIf, analysed) ? null : whatIf) }),
    ]);
    refresh();
  };
  build();
}
