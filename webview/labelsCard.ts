/**
 * The dashboard's card on the user's labels: how often the flags are right on the rollouts the
 * user labelled (precision and recall, with the counts behind each share), and the paper's audit
 * of the labelled correct answers. Shown only when the file has labels.
 */
import { h } from './dom';
import { formatPercent } from '../src/core/presentation/numbers';
import type { DashboardLabels } from '../src/protocol/panel';

/** `0.64 (7 of 11)`, or `— (none flagged)` when there is nothing to divide by. */
function shareText(part: number, whole: number, share: number | null, none: string): string {
  return share === null ? `— (${none})` : `${share.toFixed(2)} (${part} of ${whole})`;
}

function figureRow(flag: string, precision: string, recall: string): HTMLElement {
  return h('tr', { children: [h('th', { text: flag, attrs: { scope: 'row' } }), h('td', { text: precision }), h('td', { text: recall })] });
}

function auditText(labels: DashboardLabels): string | null {
  const a = labels.audit;
  if (!a) return null;
  const interval = a.interval ? ` (95% interval ${formatPercent(a.interval[0])}–${formatPercent(a.interval[1])})` : '';
  const bottom = a.prof.bottomHalfRemovedOfFlawed === null ? 'no flawed one was ranked' : `the bottom half by consistency holds ${formatPercent(a.prof.bottomHalfRemovedOfFlawed)} of the flawed ones`;
  const dropped = a.prof.droppedOfFlawed === null ? '' : `; PROF drops ${formatPercent(a.prof.droppedOfFlawed)} of them`;
  const sound = a.prof.soundOfRemoved === null ? '' : `; ${formatPercent(a.prof.soundOfRemoved)} of the labelled correct answers it drops were sound`;
  return `Audit of ${a.sample} labelled correct answer${a.sample === 1 ? '' : 's'}: ${a.flawed} flawed, ${formatPercent(a.flawedShare)}${interval}; ${bottom}${dropped}${sound}.`;
}

/** The labels card. */
export function labelsCard(labels: DashboardLabels, thresholdText: string | undefined): HTMLElement {
  const low = labels.lowStep;
  const fp = labels.falsePositive;
  const stale = labels.stale > 0 ? ` ${labels.stale} label${labels.stale === 1 ? ' does' : 's do'} not fit the rollout's current steps and ${labels.stale === 1 ? 'is' : 'are'} not used.` : '';
  const audit = auditText(labels);
  return h('section', {
    className: 'card labels-card',
    attrs: { 'aria-label': 'Flags against your labels' },
    children: [
      h('h2', { text: 'How often the flags are right, on your labels' }),
      h('p', { text: `${labels.labelled} labelled rollout${labels.labelled === 1 ? '' : 's'} (${labels.flawed} with a first wrong step, ${labels.sound} sound) in ${labels.file}.${stale}` }),
      h('table', {
        className: 'figures',
        attrs: { 'aria-label': 'Precision and recall of the flags' },
        children: [
          h('thead', { children: [h('tr', { children: ['Flag', 'Precision', 'Recall'].map((c) => h('th', { text: c, attrs: { scope: 'col' } })) })] }),
          h('tbody', { children: [
            figureRow('Low step (a step below the threshold)', shareText(low.flaggedFlawed, low.flagged, low.precision, 'none flagged'), shareText(low.flaggedFlawed, low.flawed, low.recall, 'none flawed')),
            figureRow(`Suspected false positive (${fp.correct} labelled correct answers)`, shareText(fp.flaggedFlawed, fp.flagged, fp.precision, 'none flagged'), shareText(fp.flaggedFlawed, fp.flawed, fp.recall, 'none flawed')),
          ] }),
        ],
      }),
      h('p', { className: 'muted', text: `Measured at ${thresholdText ?? `threshold ${low.threshold}`}.` }),
      h('p', { className: 'muted', text: 'Precision: of the flagged, the share you labelled with a wrong step. Recall: of those you labelled with a wrong step, the share flagged.' }),
      audit ? h('p', { className: 'audit', text: audit }) : null,
      ...labels.problems.map((p) => h('p', { className: 'muted', text: p })),
    ],
  });
}
