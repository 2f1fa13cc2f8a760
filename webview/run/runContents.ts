/**
 * What each chart of the Run Dashboard shows: the series drawn per run (solid for the main figure,
 * dashed for its companion: p90 beside the median, all-wrong beside all-correct), the value axis,
 * the shaded step-count penalty zones, and the words of tooltips and readouts.
 */
import { svg } from '../dom';
import { formatPercent } from '../../src/core/presentation/numbers';
import { penaltyZoneLabels } from '../../src/core/presentation/penaltyWords';
import { penaltyBounds } from '../../src/core/rules/profMath';
import type { RunSettings, RunStepPoint, RunView } from '../../src/protocol/run';
import { linePath, linearScale, niceMax, type Scale } from './runGeometry';
import { PLOT, stepPoint, valueAxis, type ChartContent } from './runChart';

/** One figure drawn for every run. */
export interface SeriesSpec {
  /** Empty when the chart has one series per run. */
  name: string;
  isDashed: boolean;
  value: (p: RunStepPoint) => number | null;
  /** More about the value at a point, for its tooltip, e.g. "(31 of 50 graded)". */
  detail?: (p: RunStepPoint) => string;
}

export interface LineChartSpec {
  title: string;
  yLabel: string;
  format: (v: number) => string;
  series: SeriesSpec[];
  /** A fixed top of the value axis (shares, AUROC); otherwise it follows the data. */
  yMax?: number;
  /** The axis reaches at least this high (so a penalty zone stays in view). */
  yAtLeast?: number;
  bands?: { from: number; to: number; label: string }[];
  reference?: { value: number; label: string };
}

/** Points drawn as dots (clickable) up to this many steps per run; beyond, lines only. */
const MAX_DOTS = 400;

export const share = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
export const percent = (v: number): string => formatPercent(v);
export const count = (v: number): string => (Math.abs(v) >= 10_000 ? `${(v / 1000).toFixed(0)}k` : Number.isInteger(v) ? String(v) : v.toFixed(1));

function runAt(runs: readonly RunView[]): (step: number) => string | null {
  return (step) => runs.find((r) => r.steps.some((s) => s.step === step))?.id ?? null;
}

function bandShapes(spec: LineChartSpec, y: Scale): SVGElement[] {
  return (spec.bands ?? []).flatMap((band) => {
    const top = y(Math.min(band.to, y.domain[1]));
    const bottom = y(Math.max(band.from, y.domain[0]));
    if (bottom - top <= 0) return [];
    // A thin band (collapse to one step on a tall axis) is labelled just above itself.
    const label = svg('text', { x: PLOT.width - 4, y: bottom - top < 14 ? top - 3 : top + 11, class: 'zone-text', 'text-anchor': 'end' });
    label.textContent = `penalty zone: ${band.label}`;
    return [svg('rect', { x: 0, y: top, width: PLOT.width, height: bottom - top, class: 'zone' }), label];
  });
}

/** A line chart over the steps of every run. */
export function lineContent(spec: LineChartSpec, runs: readonly RunView[], steps: number[]): ChartContent {
  const values = runs.flatMap((r) => r.steps.flatMap((p) => spec.series.map((s) => s.value(p))));
  const top = spec.yMax ?? niceMax(values, spec.yAtLeast ?? 0);
  const y = linearScale([0, top], [PLOT.height, 0]);
  const word = (run: RunView, s: SeriesSpec): string => (s.name ? `${run.label} ${s.name}` : run.label);
  return {
    title: spec.title,
    steps,
    runAt: runAt(runs),
    readout: (step) => {
      const parts = runs.flatMap((run) => {
        const p = run.steps.find((q) => q.step === step);
        if (!p) return [];
        return [`${run.label}: ${spec.series.map((s) => { const v = s.value(p); return `${s.name ? `${s.name} ` : ''}${v === null ? '—' : spec.format(v)}`; }).join(', ')}`];
      });
      return `Step ${step} — ${parts.join(' · ') || 'no run has this step'}`;
    },
    draw: (plot, x) => {
      for (const shape of bandShapes(spec, y)) plot.appendChild(shape);
      plot.appendChild(valueAxis(y, spec.format, spec.yLabel));
      if (spec.reference) {
        plot.appendChild(svg('line', { x1: 0, x2: PLOT.width, y1: y(spec.reference.value), y2: y(spec.reference.value), class: 'reference' }));
        const label = svg('text', { x: 4, y: y(spec.reference.value) - 3, class: 'axis-text' });
        label.textContent = spec.reference.label;
        plot.appendChild(label);
      }
      runs.forEach((run, index) => {
        const colour = `run-${index % 6}`;
        for (const s of spec.series) {
          plot.appendChild(svg('path', { d: linePath(run.steps.map((p) => ({ x: x(p.step), y: nullable(s.value(p), y) }))), class: `series ${colour}${s.isDashed ? ' dashed' : ''}` }));
          if (run.steps.length > MAX_DOTS) continue;
          for (const p of run.steps) {
            const v = s.value(p);
            if (v === null) continue;
            const title = `${word(run, s)} · step ${p.step}: ${spec.format(v)}${s.detail ? ` ${s.detail(p)}` : ''}${p.approximate ? ' (weighted over several files)' : ''} · ${p.fileLabel}`;
            plot.appendChild(stepPoint({ x: x(p.step), y: y(v), runId: run.id, step: p.step, className: `${colour}${s.isDashed ? ' hollow' : ''}`, title }));
          }
        }
      });
    },
  };
}

function nullable(v: number | null, y: Scale): number | null {
  return v === null ? null : y(v);
}

/** The step-count penalty as bands over H, in the words every surface uses: collapse to one step, and runaway length. */
export function penaltyBands(settings: RunSettings): { bands: NonNullable<LineChartSpec['bands']>; highFrom: number } {
  const { shortest, longest } = penaltyBounds(settings.penalty, settings.maxSteps);
  const labels = penaltyZoneLabels(settings);
  return {
    highFrom: longest,
    bands: [
      { from: 0, to: shortest, label: labels.short },
      { from: longest, to: Number.POSITIVE_INFINITY, label: labels.long },
    ],
  };
}

/** The line charts of the dashboard, in reading order. */
export function lineCharts(settings: RunSettings): { key: string; spec: LineChartSpec }[] {
  const penalty = penaltyBands(settings);
  return [
    { key: 'accuracy', spec: { title: 'Accuracy (correct of graded rollouts)', yLabel: 'accuracy', format: percent, yMax: 1, series: [{ name: '', isDashed: false, value: (p) => p.accuracy, detail: (p) => `(${p.correct} of ${p.correct + p.incorrect} graded)` }] } },
    {
      key: 'signal',
      spec: {
        title: 'Groups without GRPO signal: every rollout correct (solid) or none (dashed)', yLabel: 'share of groups', format: percent, yMax: 1,
        series: [
          { name: 'all correct', isDashed: false, value: (p) => share(p.allCorrectGroups, p.groups), detail: (p) => `(${p.allCorrectGroups} of ${p.groups} groups)` },
          { name: 'all wrong', isDashed: true, value: (p) => share(p.allIncorrectGroups, p.groups), detail: (p) => `(${p.allIncorrectGroups} of ${p.groups} groups)` },
        ],
      },
    },
    { key: 'false-positives', spec: { title: 'Suspected false positives (share of ranked correct answers)', yLabel: 'share', format: percent, yMax: 1, series: [{ name: '', isDashed: false, value: (p) => p.falsePositiveShare, detail: (p) => `(${p.suspectedFalsePositives} rollouts)` }] } },
    {
      key: 'steps',
      spec: {
        title: `Steps per response H: median (solid) and p90 (dashed); shaded: penalised`, yLabel: 'H', format: count, yAtLeast: penalty.highFrom + 2, bands: penalty.bands,
        series: [
          { name: 'median', isDashed: false, value: (p) => p.stepsMedian, detail: (p) => `(mean ${p.stepsMean === null ? '—' : p.stepsMean.toFixed(1)}; ${p.penalised} penalised)` },
          { name: 'p90', isDashed: true, value: (p) => p.stepsP90 },
        ],
      },
    },
    {
      key: 'length',
      spec: {
        title: 'Response length in characters: mean (solid) and p90 (dashed)', yLabel: 'characters', format: count,
        series: [{ name: 'mean', isDashed: false, value: (p) => p.responseCharsMean }, { name: 'p90', isDashed: true, value: (p) => p.responseCharsP90 }],
      },
    },
    { key: 'auroc', spec: { title: 'AUROC of the process score against the outcome', yLabel: 'AUROC', format: (v) => v.toFixed(2), yMax: 1, reference: { value: 0.5, label: 'chance' }, series: [{ name: '', isDashed: false, value: (p) => p.auroc }] } },
  ];
}
