/**
 * Kept and dropped by reason, stacked per step, one chart per run (stacks of several runs cannot
 * share columns). Any reason code the analysis gives is drawn (ties included) in the words every
 * other surface uses for it.
 */
import { h, svg, svgTitle } from '../dom';
import { reasonLabel } from '../../src/core/presentation/reasonWords';
import type { RunView } from '../../src/protocol/run';
import { columnWidth, linearScale, niceMax, reasonOrder, stackedColumns } from './runGeometry';
import { PLOT, valueAxis, type ChartContent } from './runChart';
import { count } from './runContents';

/** A CSS class for a reason: known codes have their own colour, others share one per kind. */
export function reasonClass(reason: string): string {
  const known = ['kept', 'kept-small-group', 'dropped-low-consistency', 'dropped-conflict', 'dropped-step-penalty', 'dropped-random', 'dropped-tie', 'dropped-group-too-small'];
  if (known.includes(reason)) return `reason-${reason}`;
  return reason.startsWith('kept') ? 'reason-kept' : reason.startsWith('dropped') ? 'reason-dropped-other' : 'reason-not-ranked';
}

/** The reasons found in a run, in reading order. */
export function runReasons(run: RunView): string[] {
  return reasonOrder(run.steps.flatMap((s) => Object.keys(s.byReason)));
}

/** The stacked chart of one run. */
export function decisionContent(run: RunView): ChartContent {
  const reasons = runReasons(run);
  const steps = run.steps.map((s) => s.step);
  const y = linearScale([0, niceMax(run.steps.map((s) => s.rollouts))], [PLOT.height, 0]);
  const width = columnWidth(PLOT.width, steps.length);
  return {
    title: `Kept and dropped by reason · ${run.label}`,
    steps,
    xPadding: width / 2 + 2,
    runAt: (step) => (steps.includes(step) ? run.id : null),
    readout: (step) => {
      const p = run.steps.find((s) => s.step === step);
      if (!p) return `Step ${step} — not in ${run.label}`;
      return `Step ${step} — ${run.label}: kept ${p.kept}, dropped ${p.dropped}: ${reasons.filter((r) => p.byReason[r]).map((r) => `${reasonLabel(r)} ${p.byReason[r]}`).join('; ')}`;
    },
    draw: (plot, x) => {
      plot.appendChild(valueAxis(y, count, 'rollouts'));
      for (const seg of stackedColumns(run.steps, reasons, x, y, width)) {
        plot.appendChild(svg('rect', { x: seg.x.toFixed(1), y: seg.y.toFixed(1), width: seg.width.toFixed(1), height: Math.max(0.5, seg.height).toFixed(1), class: `stack ${reasonClass(seg.reason)}`, 'data-run': run.id, 'data-step': seg.step }, [
          svgTitle(`${run.label} · step ${seg.step}: ${reasonLabel(seg.reason)} ${seg.count}`),
        ]));
      }
    },
  };
}

/** The legend of the reasons drawn. */
export function reasonLegend(reasons: readonly string[]): HTMLElement {
  return h('ul', {
    className: 'legend reasons',
    attrs: { 'aria-label': 'Reasons' },
    children: reasons.map((r) => h('li', { children: [h('span', { className: `swatch ${reasonClass(r)}`, attrs: { 'aria-hidden': 'true' } }), reasonLabel(r)] })),
  });
}
