/**
 * The file dashboard: totals, what PROF keeps and why, suspected false positives (with links to
 * each), whether the process score separates correct from incorrect (AUROC), calibration, the
 * step-count histogram with its penalty zones, and how many correct rollouts groups have.
 */
import { h, replaceChildren } from './dom';
import { calibrationChart, histogramChart, horizontalBars } from './charts';
import { penaltyZones } from './chartGeometry';
import { exportBar } from './exportBar';
import { labelsCard } from './labelsCard';
import { aurocWords, formatPercent, formatScore } from '../src/core/presentation/numbers';
import { penaltyZonesText } from '../src/core/presentation/penaltyWords';
import { falsePositiveRulesText, reasonFamily, reasonLabel } from '../src/core/presentation/reasonWords';
import type { Channel } from './channel';
import type { DashboardData } from '../src/protocol/panel';
import { rolloutLocation } from '../src/core/presentation/locationWords';
import { shortGroupName } from '../src/core/presentation/groupNames';

function stat(term: string, value: string, description?: string): HTMLElement {
  return h('div', { className: 'count', attrs: description ? { title: description } : {}, children: [h('dt', { text: term }), h('dd', { text: value })] });
}

function totals(data: DashboardData): HTMLElement {
  const r = data.report;
  return h('dl', {
    className: 'counts',
    children: [
      stat('rollouts', String(r.rollouts)),
      stat('groups', String(r.groups)),
      stat('kept', String(r.kept)),
      stat('dropped', String(r.dropped), 'not kept, including rollouts that could not be ranked'),
      stat('not ranked', String(r.notRanked)),
      stat('correct', String(r.outcomes.correct)),
      stat('incorrect', String(r.outcomes.incorrect)),
      stat('penalised', String(r.penalised), 'rollouts with the step-count penalty'),
      stat('unreadable lines', String(r.unreadableLines)),
    ],
  });
}

function separation(data: DashboardData): HTMLElement {
  const { auroc } = data.report;
  return h('section', {
    className: 'card',
    attrs: { 'aria-label': 'Separation' },
    children: [
      h('h2', { text: 'Does the process score separate correct from incorrect?' }),
      h('p', { children: [h('strong', { className: 'big', text: auroc === null ? '—' : auroc.toFixed(3) }), ` AUROC of the aggregate step score against the outcome: ${aurocWords(auroc)}.`] }),
      calibrationChart(data.report.calibration),
    ],
  });
}

function falsePositiveList(data: DashboardData, channel: Channel): HTMLElement {
  const rows = data.falsePositives.map((fp) => {
    const reveal = h('button', { className: 'link', text: rolloutLocation({ line: fp.line, index: fp.index, count: fp.responsesOnLine }), attrs: { type: 'button' } });
    reveal.addEventListener('click', () => channel.post({ type: 'reveal', source: data.source, rolloutId: fp.id }));
    const group = groupCell(fp.groupLabel, fp.groupName, () => channel.post({ type: 'showGroup', source: data.source, rolloutId: fp.id }));
    return h('tr', { children: [h('td', { children: [reveal] }), group, h('td', { className: 'num', text: formatScore(fp.weakest) }), h('td', { text: falsePositiveRulesText(fp.rules) }), h('td', { className: 'evidence', text: fp.evidence ?? '—' })] });
  });
  const more = data.falsePositiveTotal > data.falsePositives.length ? h('p', { className: 'muted', text: `Showing ${data.falsePositives.length} of ${data.falsePositiveTotal}.` }) : null;
  const head = h('thead', { children: [h('tr', { children: ['Rollout', 'Group', 'Weakest step', 'Rules', 'Evidence'].map((c) => h('th', { text: c, attrs: { scope: 'col' } })) })] });
  return h('div', { children: [h('table', { className: 'fp-list', attrs: { 'aria-label': 'Suspected false positives' }, children: [head, h('tbody', { children: rows })] }), more] });
}

function falsePositives(data: DashboardData, channel: Channel): HTMLElement {
  const r = data.report;
  const byRule = Object.entries(r.byFalsePositiveRule).map(([rule, count]) => `${falsePositiveRulesText([rule])}: ${count}`).join(' · ');
  return h('section', {
    className: 'card',
    attrs: { 'aria-label': 'Suspected false positives' },
    children: [
      h('h2', { text: 'Suspected false positives' }),
      h('p', { children: [h('strong', { className: 'big', text: String(r.suspectedFalsePositives) }), ` correct answers whose steps the process score does not support — ${formatPercent(r.falsePositiveRate)} of the ranked correct rollouts.`] }),
      byRule ? h('p', { className: 'muted', text: `Rules that fired: ${byRule}` }) : null,
      data.falsePositives.length ? falsePositiveList(data, channel) : h('p', { className: 'muted', text: 'None.' }),
    ],
  });
}

function decisions(data: DashboardData): HTMLElement {
  const items = Object.entries(data.report.byReason).map(([reason, count]) => ({
    label: reasonLabel(reason),
    count: count ?? 0,
    className: reasonFamily(reason),
  }));
  return h('section', { className: 'card', attrs: { 'aria-label': 'Decisions' }, children: [h('h2', { text: 'Kept and dropped, by reason' }), horizontalBars('Rollouts by decision', items)] });
}

function distributions(data: DashboardData): HTMLElement {
  const settings = data.settings;
  return h('section', {
    className: 'card',
    attrs: { 'aria-label': 'Distributions' },
    children: [
      h('h2', { text: 'Step counts and groups' }),
      h('div', {
        className: 'charts',
        children: [
          histogramChart({
            title: `Step count H of ranked rollouts (shaded: penalised, ${penaltyZonesText(settings)})`,
            counts: data.report.stepCounts,
            xLabel: 'steps (H)',
            describe: (keys, count) => `${count} rollout${count === 1 ? '' : 's'} with H = ${keys}`,
            zones: (from, to) => penaltyZones(from, to, settings),
          }),
          histogramChart({
            title: 'Correct rollouts per group (n+)',
            counts: data.report.correctPerGroup,
            xLabel: 'n+',
            describe: (keys, count) => `${count} group${count === 1 ? '' : 's'} with ${keys} correct`,
          }),
        ],
      }),
    ],
  });
}

/** Characters of a group's name a table cell shows (the whole name is its tooltip). */
const GROUP_CELL_CHARS = 48;

/** A group's cell: its name as a link to the group view, its id beside it in grey. */
function groupCell(id: string, name: string | undefined, open: () => void): HTMLElement {
  const named = !!name;
  const link = h('button', {
    className: 'link',
    text: shortGroupName(name, id, GROUP_CELL_CHARS),
    attrs: { type: 'button', title: named ? `${name} (group ${id})` : `group ${id}`, 'aria-label': `Show group ${id}` },
  });
  link.addEventListener('click', open);
  return h('td', { className: 'named-group', children: [link, named ? h('span', { className: 'muted group-id', text: ` ${id}` }) : null] });
}

/** The file's groups, each a link to the group view (how a file read from disk, a parquet file, is browsed). */
function groupList(data: DashboardData, channel: Channel): HTMLElement | null {
  const groups = data.groups ?? [];
  if (groups.length === 0) return null;
  const rows = groups.map((g) => {
    const open = groupCell(g.label, g.name, () => channel.post({ type: 'showGroup', source: data.source, rolloutId: g.rolloutId }));
    return h('tr', { children: [open, h('td', { className: 'num', text: String(g.rollouts) }), h('td', { className: 'num', text: String(g.correct) }), h('td', { className: 'num', text: String(g.kept) })] });
  });
  const head = h('thead', { children: [h('tr', { children: ['Group', 'Rollouts', 'Correct', 'Kept'].map((c) => h('th', { text: c, attrs: { scope: 'col' } })) })] });
  const total = data.groupTotal ?? groups.length;
  return h('section', {
    className: 'card',
    attrs: { 'aria-label': 'Groups' },
    children: [
      h('h2', { text: 'Groups' }),
      h('table', { className: 'group-list', attrs: { 'aria-label': 'Groups' }, children: [head, h('tbody', { children: rows })] }),
      total > groups.length ? h('p', { className: 'muted', text: `Showing the first ${groups.length} of ${total}.` }) : null,
    ],
  });
}

/** Renders the dashboard into `root`. */
export function renderDashboard(root: HTMLElement, data: DashboardData, channel: Channel): void {
  const readAs = Object.keys(data.report.readAs ?? {});
  const rules = h('button', { className: 'link compare-rules', text: 'Compare curation rules', attrs: { type: 'button', title: 'Every curation rule on this file side by side: what each keeps, and where two disagree' } });
  rules.addEventListener('click', () => channel.post({ type: 'compareRules', source: data.source }));
  replaceChildren(root, [
    h('header', {
      className: 'view-header',
      children: [h('h1', { text: 'PROF dashboard' }), h('span', { className: 'muted file', text: `${data.fileLabel} · scored by ${data.scorerLabel}${data.thresholdText ? ` · ${data.thresholdText}` : ''}` }), rules],
    }),
    ...readAs.map((how) => h('p', { className: 'read-as muted', text: `${how.charAt(0).toUpperCase()}${how.slice(1)}` })),
    totals(data),
    decisions(data),
    falsePositives(data, channel),
    data.labels ? labelsCard(data.labels, data.thresholdText) : null,
    separation(data),
    distributions(data),
    groupList(data, channel),
    exportBar({ channel, source: data.source, settings: () => null }),
  ]);
}
