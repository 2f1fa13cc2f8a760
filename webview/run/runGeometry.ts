/**
 * Where the Run Dashboard's shapes go: scales over training steps and values, round tick values,
 * line paths with gaps where a step has no value, the nearest step to a pointer, and stacked
 * columns of decisions by reason. Pure arithmetic, tested without a browser.
 */

/** A linear map from a domain to a range. */
export interface Scale {
  (value: number): number;
  domain: [number, number];
}

/** Linear scale; a zero-width domain maps to the middle of the range. */
export function linearScale(domain: [number, number], range: [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const scale = ((v: number) => (d1 === d0 ? (r0 + r1) / 2 : r0 + ((v - d0) / (d1 - d0)) * (r1 - r0))) as Scale;
  scale.domain = [d0, d1];
  return scale;
}

/** A round step for about `count` ticks over a span: 1, 2 or 5 times a power of ten. */
function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

/** Round tick values covering [min, max], about `count` of them. */
export function niceTicks(min: number, max: number, count: number): number[] {
  if (!(max > min)) return [min];
  const step = niceStep(max - min, count);
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/** The top of a value axis: the next round value above the data (and above `atLeast`), or 1 for an empty chart. */
export function niceMax(values: readonly (number | null)[], atLeast = 0): number {
  let max = atLeast;
  for (const v of values) if (v !== null && Number.isFinite(v) && v > max) max = v;
  if (max <= 0) return 1;
  const step = niceStep(max, 5);
  return Math.ceil((max * 1.0001) / step) * step;
}

/** An SVG path through the points; a null value breaks the line (the step has no such figure). */
export function linePath(points: readonly { x: number; y: number | null }[]): string {
  let path = '';
  let pen = false;
  for (const p of points) {
    if (p.y === null || !Number.isFinite(p.y)) {
      pen = false;
      continue;
    }
    path += `${pen ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`;
    pen = true;
  }
  return path;
}

/** Index of the value in ascending `sorted` nearest to `x` (-1 when empty). */
export function nearestIndex(sorted: readonly number[], x: number): number {
  if (sorted.length === 0) return -1;
  let lo = 0;
  let hi = sorted.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= x) lo = mid;
    else hi = mid;
  }
  return Math.abs(sorted[hi]! - x) < Math.abs(sorted[lo]! - x) ? hi : lo;
}

/** The steps of several runs, ascending, each once. */
export function unionSteps(runs: readonly { steps: readonly { step: number }[] }[]): number[] {
  return [...new Set(runs.flatMap((r) => r.steps.map((s) => s.step)))].sort((a, b) => a - b);
}

/** Reason codes in reading order: kept ones, then dropped, then not ranked; each group alphabetical. */
export function reasonOrder(reasons: Iterable<string>): string[] {
  const rank = (r: string): number => (r.startsWith('kept') ? 0 : r.startsWith('dropped') ? 1 : 2);
  return [...new Set(reasons)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** One segment of a stacked column. */
export interface StackSegment {
  step: number;
  reason: string;
  count: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Stacked columns: per step, its rollouts by reason from the bottom up in `reasons` order. */
export function stackedColumns(steps: readonly { step: number; byReason: Readonly<Record<string, number>> }[], reasons: readonly string[], x: Scale, y: Scale, columnWidth: number): StackSegment[] {
  const segments: StackSegment[] = [];
  for (const s of steps) {
    let base = 0;
    for (const reason of reasons) {
      const count = s.byReason[reason] ?? 0;
      if (count <= 0) continue;
      const top = y(base + count);
      segments.push({ step: s.step, reason, count, x: x(s.step) - columnWidth / 2, y: top, width: columnWidth, height: y(base) - top });
      base += count;
    }
  }
  return segments;
}

/** Width of a column for `count` steps across `width`, between 1 and 24 units. */
export function columnWidth(width: number, count: number): number {
  return Math.max(1, Math.min(24, (width / Math.max(1, count)) * 0.7));
}
