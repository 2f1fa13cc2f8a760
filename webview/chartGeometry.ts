/**
 * Where the dashboard's shapes go: histogram bars, the step-count penalty zones, calibration
 * points. Pure arithmetic on the report's numbers, tested without a browser.
 */
import type { CalibrationBin } from '../src/core/statistics';
import type { WhatIfSettings } from '../src/protocol/panel';
import { penaltyBounds } from '../src/core/prof';
import { penaltyZoneLabels } from '../src/core/presentation/penaltyWords';

/** The plotting area, in SVG units. */
export interface PlotSize {
  width: number;
  height: number;
}

/** One histogram bar. */
export interface Bar {
  key: number;
  count: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A histogram over integer keys with every key from `from` to `to` present (zeros included). */
export interface Histogram {
  bars: Bar[];
  from: number;
  to: number;
  maxCount: number;
}

/** Bars for counts by integer key (`"3"` → 12); keys that are not integers ≥ 0 are ignored. */
export function histogram(counts: Readonly<Record<string, number>>, size: PlotSize, from = 0): Histogram {
  const entries = Object.entries(counts)
    .map(([key, count]) => [Number(key), count] as const)
    .filter(([key, count]) => Number.isInteger(key) && key >= 0 && Number.isFinite(count) && count > 0);
  const to = entries.reduce((max, [key]) => Math.max(max, key), from);
  const maxCount = entries.reduce((max, [, count]) => Math.max(max, count), 0);
  const slots = to - from + 1;
  const slot = size.width / slots;
  const byKey = new Map(entries);
  const bars: Bar[] = [];
  for (let key = from; key <= to; key++) {
    const count = byKey.get(key) ?? 0;
    const height = maxCount === 0 ? 0 : (count / maxCount) * size.height;
    bars.push({ key, count, x: (key - from) * slot + slot * 0.1, y: size.height - height, width: slot * 0.8, height });
  }
  return { bars, from, to, maxCount };
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
