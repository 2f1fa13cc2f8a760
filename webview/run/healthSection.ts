/**
 * The Run Dashboard's Health section: for each run, one card per detector (fired, quiet, not
 * available, needs a run) with its onset, severity and evidence in words, a small chart of its
 * series over the steps with the onset marked, and its strongest examples. A point of the chart
 * (click, or Enter on it) opens the Rollout Explorer over that step, filtered to the rollouts
 * that show the detector.
 */
import { h, replaceChildren, svg, svgTitle } from '../dom';
import type { DetectorResult, HealthSeries } from '../../src/core/health/healthTypes';
import type { RunHealthView } from '../../src/protocol/runHealth';
import { linearScale, linePath } from './runGeometry';

const SIZE = { width: 300, height: 70, pad: 6 } as const;

const STATUS_WORDS: Readonly<Record<DetectorResult['status'], string>> = {
  fired: 'fired',
  quiet: 'quiet',
  'not-available': 'not available',
  'needs-run': 'needs a run',
};

export type ExploreHealth = (runId: string, step: number, detector: DetectorResult['id']) => void;

/** The series a card draws: the first with a value at some step. */
function drawnSeries(d: DetectorResult): HealthSeries | null {
  return d.series.find((s) => s.points.some((p) => p.value !== null)) ?? null;
}

function chart(runId: string, d: DetectorResult, explore: ExploreHealth): SVGElement | null {
  const series = drawnSeries(d);
  if (!series || d.status === 'not-available' || d.status === 'needs-run') return null;
  const points = series.points.filter((p): p is { step: number; value: number } => p.value !== null);
  const values = points.map((p) => p.value);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const x = linearScale([points[0]!.step, points[points.length - 1]!.step], [SIZE.pad, SIZE.width - SIZE.pad]);
  const y = linearScale(hi > lo ? [lo, hi] : [lo - 1, lo + 1], [SIZE.height - SIZE.pad, SIZE.pad]);
  const line = svg('path', { class: 'series', d: linePath(points.map((p) => ({ x: x(p.step), y: y(p.value) }))) });
  const onset = d.onset === null ? null : svg('line', { class: 'onset', x1: x(d.onset), x2: x(d.onset), y1: 0, y2: SIZE.height }, [svgTitle(`onset: step ${d.onset}`)]);
  const dots = points.map((p) => {
    const label = `step ${p.step}: ${series.label} ${p.value.toFixed(3)} — open the rollouts that show it`;
    const dot = svg('circle', { class: `health-point${d.onset !== null && p.step >= d.onset ? ' after-onset' : ''}`, cx: x(p.step), cy: y(p.value), r: 3.2, tabindex: 0, role: 'button', 'aria-label': label, 'data-step': p.step }, [svgTitle(label)]);
    dot.addEventListener('click', () => explore(runId, p.step, d.id));
    dot.addEventListener('keydown', (e) => {
      if ((e as KeyboardEvent).key === 'Enter') explore(runId, p.step, d.id);
    });
    return dot;
  });
  return svg('svg', { class: 'chart health-chart', viewBox: `0 0 ${SIZE.width} ${SIZE.height}`, role: 'group', 'aria-label': `${d.name}: ${series.label} over steps` }, [line, onset, ...dots]);
}

function card(runId: string, d: DetectorResult, explore: ExploreHealth): HTMLElement {
  const facts = [d.severity ? `severity ${d.severity}` : null, d.onset !== null ? `onset step ${d.onset}` : null].filter((x): x is string => x !== null);
  const examples = d.status === 'fired' ? d.examples.slice(0, 3).map((e) => h('li', { text: `${e.file.split(/[\\/]/).pop() ?? e.file}:${e.line} (step ${e.step}) — ${e.note}`, attrs: { title: e.span.text } })) : [];
  return h('article', {
    className: `health-card status-${d.status}`,
    attrs: { 'data-detector': d.id },
    children: [
      h('h3', { children: [h('span', { className: 'health-status', text: STATUS_WORDS[d.status] }), ` ${d.name}`] }),
      facts.length ? h('p', { className: 'health-facts', text: facts.join(' · ') }) : null,
      h('p', { className: 'muted health-summary', text: d.summary }),
      chart(runId, d, explore),
      examples.length ? h('ul', { className: 'health-examples', children: examples }) : null,
    ],
  });
}

/** Renders every run's health into `area`. */
export function renderHealth(area: HTMLElement, views: readonly RunHealthView[], labelOf: (runId: string) => string, explore: ExploreHealth): void {
  const blocks = views.map((v) => {
    const head = h('h3', { className: 'health-run', text: `${labelOf(v.runId)}${v.state === 'reading' ? ' · auditing…' : v.state === 'failed' ? ` · the audit failed: ${v.message ?? ''}` : ` · ${v.steps} steps, ${v.rollouts} rollouts`}` });
    const fired = v.detectors.filter((d) => d.status === 'fired');
    const order = [...fired, ...v.detectors.filter((d) => d.status !== 'fired')];
    return h('div', { className: 'health-run-block', attrs: { 'data-run': v.runId, 'data-state': v.state }, children: [head, h('div', { className: 'health-cards', children: order.map((d) => card(v.runId, d, explore)) })] });
  });
  replaceChildren(area, [h('h2', { text: 'Health' }), ...blocks]);
}
