/**
 * Where the dashboard's shapes go: histogram bars, the step-count penalty zones, calibration
 * points. Pure arithmetic on the report's numbers, tested without a browser.
 */
import type { CalibrationBin } from '../src/core/report/statistics';
import type { WhatIfSettings } from '../src/protocol/panel';
import { penaltyBounds } from '../src/core/rules/profMath';
import { penaltyZoneLabels } from '../src/core/presentation/penaltyWords';

/** The plotting area, in SVG units. */
export interface PlotSize {
  width: number;
  height: number;
}

/** One histogram bar: the keys `key`…`to` (one key unless the axis is binned). */
export interface Bar {
  key: number;
  to: number;
  count: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A histogram over integer keys from `from` to `to`, every key (or bin of keys) present, zeros included. */
export interface Histogram {
  bars: Bar[];
  from: number;
  to: number;
  /** Keys per bar: 1, or more when the range is wider than `MAX_BARS` keys. */
  binWidth: number;
  maxCount: number;
}

/**
 * Most bars a histogram draws. A wider key range is binned: a file whose longest rollout has ten
 * million steps would otherwise draw ten million bars (1.7 GB in the webview).
 */
export const MAX_BARS = 60;

/** Bars for counts by integer key (`"3"` → 12); keys that are not integers ≥ 0 are ignored. */
export function histogram(counts: Readonly<Record<string, number>>, size: PlotSize, from = 0): Histogram {
  const entries = Object.entries(counts)
    .map(([key, count]) => [Number(key), count] as const)
    .filter(([key, count]) => Number.isSafeInteger(key) && key >= from && Number.isFinite(count) && count > 0);
  const to = entries.reduce((max, [key]) => Math.max(max, key), from);
  const keys = to - from + 1;
  const binWidth = Math.max(1, Math.ceil(keys / MAX_BARS));
  const binCount = Math.ceil(keys / binWidth);
  const binned = new Array<number>(binCount).fill(0);
  for (const [key, count] of entries) binned[Math.floor((key - from) / binWidth)]! += count;
  const maxCount = binned.reduce((max, count) => Math.max(max, count), 0);
  // The x axis stays in keys, so zones and ticks are placed the same way binned or not.
  const slot = size.width / keys;
  const bars: Bar[] = binned.map((count, b) => {
    const key = from + b * binWidth;
    const width = (Math.min(to, key + binWidth - 1) - key + 1) * slot;
    const height = maxCount === 0 ? 0 : (count / maxCount) * size.height;
    return { key, to: Math.min(to, key + binWidth - 1), count, x: (key - from) * slot + width * 0.1, y: size.height - height, width: width * 0.8, height };
  });
  return { bars, from, to, binWidth, maxCount };
}

/** A bar's keys in words: `12`, or `1,000–1,999` for a bin. */
export function barKeys(bar: Pick<Bar, 'key' | 'to'>): string {
  const n = (k: number): string => k.toLocaleString('en-US');
  return bar.key === bar.to ? n(bar.key) : `${n(bar.key)}–${n(bar.to)}`;
}

/** A key range [from, to] that draws the step-count penalty. */
export interface Zone {
  from: number;
  to: number;
  label: string;
}

/** The penalised step counts within [from, to], from the configured rule and Hλ. */
export function penaltyZones(from: number, to: number, settings: Pick<WhatIfSettings, 'penalty' | 'maxSteps'>): Zone[] {
  const zones: Zone[] = [];
  const { shortest, longest } = penaltyBounds(settings.penalty, settings.maxSteps);
  const labels = penaltyZoneLabels(settings);
  if (from <= shortest) zones.push({ from, to: Math.min(shortest, to), label: labels.short });
  if (to >= longest) zones.push({ from: Math.max(longest, from), to, label: labels.long });
  return zones;
}

/** A calibration point: the bin's mean score against the share of correct answers. */
export interface CalibrationPoint {
  bin: CalibrationBin;
  cx: number;
  cy: number;
  r: number;
}

/** Points for the non-empty bins, sized by how many rollouts they hold. */
export function calibrationPoints(bins: readonly CalibrationBin[], size: PlotSize): CalibrationPoint[] {
  const largest = bins.reduce((max, b) => Math.max(max, b.count), 0);
  return bins.flatMap((bin) => {
    if (bin.count === 0 || bin.meanScore === null || bin.fractionCorrect === null) return [];
    const r = 2.5 + 5.5 * Math.sqrt(bin.count / largest);
    return [{ bin, cx: clamp01(bin.meanScore) * size.width, cy: (1 - clamp01(bin.fractionCorrect)) * size.height, r }];
  });
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

/** Roughly `count` evenly spaced integer ticks over [from, to], always including both ends. */
export function integerTicks(from: number, to: number, count: number): number[] {
  if (to <= from) return [from];
  const step = Math.max(1, Math.ceil((to - from) / Math.max(1, count)));
  const ticks: number[] = [];
  for (let t = from; t < to; t += step) ticks.push(t);
  if (to - (ticks[ticks.length - 1] as number) < step / 2 && ticks.length > 1) ticks.pop();
  ticks.push(to);
  return ticks;
}
