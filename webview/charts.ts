/**
 * The dashboard's pictures as inline SVG: histograms (with the penalty zones shaded), the
 * calibration plot and horizontal bars. Colours come from the theme through CSS classes, and each
 * shape has a `<title>` so its numbers can be read by hovering or with a screen reader.
 */
import { h, svg, svgTitle } from './dom';
import { barKeys, calibrationPoints, histogram, integerTicks, type Zone } from './chartGeometry';
import type { CalibrationBin } from '../src/core/report/statistics';
import { formatScore } from '../src/core/presentation/numbers';

const MARGIN = { left: 40, right: 12, top: 12, bottom: 34 };

function frame(width: number, height: number, label: string, children: (SVGElement | null)[]): SVGElement {
  const plot = svg('g', { transform: `translate(${MARGIN.left},${MARGIN.top})` }, children);
  return svg('svg', {
    class: 'chart', role: 'img', 'aria-label': label,
    viewBox: `0 0 ${width + MARGIN.left + MARGIN.right} ${height + MARGIN.top + MARGIN.bottom}`,
    width: width + MARGIN.left + MARGIN.right, height: height + MARGIN.top + MARGIN.bottom,
  }, [plot]);
}

function text(x: number, y: number, content: string, attrs: Record<string, string | number> = {}): SVGElement {
  const element = svg('text', { x, y, class: 'axis-text', ...attrs });
  element.textContent = content;
  return element;
}

function axes(width: number, height: number, labels: { x: string; y: string }): SVGElement[] {
  return [
    svg('line', { x1: 0, y1: height, x2: width, y2: height, class: 'axis' }),
    svg('line', { x1: 0, y1: 0, x2: 0, y2: height, class: 'axis' }),
    text(width / 2, height + 30, labels.x, { 'text-anchor': 'middle' }),
    text(-height / 2, -28, labels.y, { 'text-anchor': 'middle', transform: 'rotate(-90)' }),
  ];
}

/** What a histogram shows. */
export interface HistogramSpec {
  title: string;
  counts: Readonly<Record<string, number>>;
  xLabel: string;
  /** What one bar counts, for its tooltip, e.g. `rollouts with H = {keys}` (`keys`: `12`, or a bin `1,000–1,999`). */
  describe: (keys: string, count: number) => string;
  zones?: (from: number, to: number) => Zone[];
}

/** A histogram over integer keys (binned when the range is wide); empty keys are drawn as gaps. */
export function histogramChart(spec: HistogramSpec): HTMLElement {
  const size = { width: 360, height: 140 };
  const hist = histogram(spec.counts, size);
  const slot = size.width / (hist.to - hist.from + 1);
  const zones = (spec.zones?.(hist.from, hist.to) ?? []).map((z) => svg('rect', {
    x: (z.from - hist.from) * slot, y: 0, width: (z.to - z.from + 1) * slot, height: size.height, class: 'zone',
  }, [svgTitle(`penalty zone: ${z.label}`)]));
  // Above the plot, in its top margin: inside it the tallest bar would cover the label.
  const zoneLabels = (spec.zones?.(hist.from, hist.to) ?? []).map((z) => text((z.from - hist.from) * slot + 2, -3, z.label, { class: 'zone-text' }));
  const bars = hist.bars.filter((b) => b.count > 0).map((b) => svg('rect', { x: b.x, y: b.y, width: Math.max(1, b.width), height: b.height, class: 'bar' }, [svgTitle(spec.describe(barKeys(b), b.count))]));
  const ticks = integerTicks(hist.from, hist.to, 8).map((t) => text((t - hist.from + 0.5) * slot, size.height + 14, String(t), { 'text-anchor': 'middle' }));
  const yTicks = [0, hist.maxCount].map((c) => text(-6, c === 0 ? size.height : 8, String(c), { 'text-anchor': 'end' }));
  const total = Object.values(spec.counts).reduce((a, b) => a + b, 0);
  const label = `${spec.title}: ${hist.bars.filter((b) => b.count > 0).map((b) => `${barKeys(b)}: ${b.count}`).join(', ') || 'no data'}`;
  const chart = frame(size.width, size.height, label, [...zones, ...bars, ...axes(size.width, size.height, { x: spec.xLabel, y: 'count' }), ...ticks, ...yTicks, ...zoneLabels]);
  const binned = hist.binWidth > 1 ? `; bars of ${hist.binWidth.toLocaleString('en-US')} values each` : '';
  return h('figure', { className: 'chart-figure', children: [h('figcaption', { text: `${spec.title} (${total}${binned})` }), chart] });
}

/** Calibration: the mean step score of each bin against the share of correct rollouts in it. */
export function calibrationChart(bins: readonly CalibrationBin[]): HTMLElement {
  const size = { width: 200, height: 200 };
  const points = calibrationPoints(bins, size).map((p) => svg('circle', { cx: p.cx, cy: p.cy, r: p.r, class: 'point' }, [
    svgTitle(`scores ${p.bin.low.toFixed(1)}–${p.bin.high.toFixed(1)}: ${p.bin.count} rollouts, mean score ${formatScore(p.bin.meanScore)}, ${((p.bin.fractionCorrect ?? 0) * 100).toFixed(0)}% correct`),
  ]));
  const ticks = [0, 0.5, 1].flatMap((t) => [
    text(t * size.width, size.height + 14, String(t), { 'text-anchor': 'middle' }),
    text(-6, (1 - t) * size.height + 4, String(t), { 'text-anchor': 'end' }),
  ]);
  const diagonal = svg('line', { x1: 0, y1: size.height, x2: size.width, y2: 0, class: 'diagonal' }, [svgTitle('perfect calibration')]);
  const label = `Calibration: ${points.length} bins; ${bins.filter((b) => b.count > 0).map((b) => `${b.low.toFixed(1)}–${b.high.toFixed(1)}: ${((b.fractionCorrect ?? 0) * 100).toFixed(0)}% correct of ${b.count}`).join('; ')}`;
  const chart = frame(size.width, size.height, label, [diagonal, ...axes(size.width, size.height, { x: 'process score (aggregate)', y: 'share correct' }), ...ticks, ...points]);
  return h('figure', { className: 'chart-figure', children: [h('figcaption', { text: 'Calibration of step scores against outcome' }), chart] });
}

/** One labelled horizontal bar. */
export interface HorizontalBar {
  label: string;
  count: number;
  className: string;
}

/**
 * Horizontal bars with their labels and counts, longest first. Each label sits on its own line
 * above its bar, so a long reason never runs into the bar, and the chart is narrow enough for a
 * panel half an editor wide (and scales down below that, panel.css).
 */
export function horizontalBars(title: string, items: readonly HorizontalBar[]): HTMLElement {
  const sorted = [...items].filter((i) => i.count > 0).sort((a, b) => b.count - a.count);
  const max = sorted.reduce((m, i) => Math.max(m, i.count), 0);
  const rowHeight = 34;
  const barWidth = 340;
  const width = barWidth + 60;
  const rows = sorted.map((item, i) => {
    const length = max ? Math.max(2, (item.count / max) * barWidth) : 0;
    return svg('g', { transform: `translate(0,${i * rowHeight})` }, [
      text(0, 11, item.label, { class: 'axis-text bar-label' }),
      svg('rect', { x: 0, y: 15, width: length, height: 14, class: `bar ${item.className}` }, [svgTitle(`${item.label}: ${item.count}`)]),
      text(length + 6, 26, String(item.count)),
    ]);
  });
  const height = Math.max(rowHeight, sorted.length * rowHeight);
  const chart = svg('svg', {
    class: 'chart', role: 'img', 'aria-label': `${title}: ${sorted.map((i) => `${i.label} ${i.count}`).join(', ')}`,
    width, height, viewBox: `0 0 ${width} ${height}`,
  }, rows);
  return h('figure', { className: 'chart-figure', children: [h('figcaption', { text: title }), chart] });
}
