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
  /** Rows showing their steps, kept when the same group is sent again (after a label changed). */
  expanded?: Set<number>;
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
  if (counts.tied > 0) items.push(countItem('tied', counts.tied, 'dropped because they tied with a kept rollout (file order decided, not the scores)'));
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
  // Named by its question (one line, cut with an ellipsis; whole in the tooltip and the prompt
  // below); the id the CLI's lines and the Explorer use stays beside it.
  const name = data.groupName || data.groupLabel;
  return h('header', {
    className: 'view-header',
    children: [
      h('h1', { className: 'group-title', attrs: { title: `${name} (group ${data.groupLabel})` }, children: ['PROF group · ', h('span', { className: 'group-name', text: name })] }),
      h('span', { className: 'muted group-id', text: data.groupLabel, attrs: { title: `group id ${data.groupLabel}` } }),
      h('span', { className: 'muted file', text: data.fileLabel }),
      dashboard,
    ],
  });
}

/** A turn the panel shows folded: its heading, opened on a click. */
function folded(label: string, text: string): HTMLElement {
  return h('details', {
    className: 'prompt-turn',
    children: [h('summary', { text: `${label} (${text.length.toLocaleString('en-US')} characters)` }), mathText(text, 'prose turn-text')],
  });
}

function promptSection(data: GroupData): HTMLElement {
  const isChat = (data.system ?? null) !== null || (data.earlierTurns?.length ?? 0) > 0;
  return h('section', {
    className: 'prompt',
    attrs: { 'aria-label': 'Prompt and gold answer' },
    children: [
      data.readAs ? h('p', { className: 'read-as muted', text: data.readAs }) : null,
      data.system ? folded('System prompt', data.system) : null,
      ...(data.earlierTurns ?? []).map((t) => folded(t.label, t.text)),
      h('h2', { text: isChat ? 'Question' : 'Prompt' }),
      mathText(data.prompt, 'prose prompt-text'),
      h('p', { className: 'gold', children: [h('span', { className: 'muted', text: 'Gold answer: ' }), answerText(data.gold)] }),
      data.omitted ? h('p', { className: 'omitted muted', attrs: { role: 'note' }, text: `Long group: ${data.omitted}` }) : null,
    ],
  });
}

/** The group view's state: the what-if in force and which rows show their steps. */
class GroupView {
  private readonly analysed: WhatIfSettings;
  private whatIf: WhatIfSettings;
  private readonly expanded: Set<number>;
  private readonly counts = h('div', { className: 'counts-holder' });
  private readonly summary = h('p', { className: 'change-summary', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly table = h('div', { className: 'table-holder' });

  constructor(private readonly root: HTMLElement, private readonly options: GroupViewOptions) {
    this.analysed = whatIfOf(options.data.settings);
    this.whatIf = options.whatIf ?? this.analysed;
    this.expanded = options.expanded ?? new Set<number>();
  }

  /** Builds the whole view (again after a reset, so the controls show the analysed values). */
  build(): void {
    const { data, channel } = this.options;
    replaceChildren(this.root, [
      header(this.options),
      promptSection(data),
      this.counts,
      whatIfControls({ current: this.whatIf, onChange: (next) => this.apply(next), onReset: () => this.reset() }),
      this.summary,
      this.table,
      exportBar({ channel, source: data.source, settings: () => (isSameWhatIf(this.whatIf, this.analysed) ? null : this.whatIf) }),
    ]);
    this.refresh();
  }

  private apply(next: WhatIfSettings): void {
    this.whatIf = next;
    this.options.onWhatIf(isSameWhatIf(next, this.analysed) ? null : next);
    this.refresh();
  }

  private reset(): void {
    this.apply(this.analysed);
    this.build();
    this.root.querySelector<HTMLElement>('#whatif-reset')?.focus();
  }

  /** Decides the group under the current what-if and redraws counts and rows, keeping focus. */
  private refresh(): void {
    const { data, channel } = this.options;
    const rows = recompute(data, this.whatIf);
    replaceChildren(this.counts, [countsList(countGroup(rows, this.whatIf))]);
    this.summary.textContent = changeSummary(rows, !isSameWhatIf(this.whatIf, this.analysed));
    const focused = document.activeElement?.getAttribute('data-rollout');
    replaceChildren(this.table, [groupTable(rows, {
      whatIf: this.whatIf,
      expanded: this.expanded,
      onReveal: (rolloutId) => channel.post({ type: 'reveal', source: data.source, rolloutId }),
      onToggle: (rolloutId) => {
        if (!this.expanded.delete(rolloutId)) this.expanded.add(rolloutId);
        this.refresh();
      },
      onLabel: (rolloutId, action, step) => channel.post({ type: 'label', source: data.source, rolloutId, action, step }),
    })]);
    if (focused) this.table.querySelector<HTMLElement>(`tr[data-rollout="${CSS.escape(focused)}"]`)?.focus();
  }
}

/** Renders the group view into `root`. */
export function renderGroupView(root: HTMLElement, options: GroupViewOptions): void {
  new GroupView(root, options).build();
}
