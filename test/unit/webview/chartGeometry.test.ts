import { describe, expect, it } from 'vitest';
import { barKeys, calibrationPoints, histogram, integerTicks, MAX_BARS, penaltyZones } from '../../../webview/chartGeometry';
import { aurocWords } from '../../../src/core/presentation/numbers';

describe('histograms', () => {
  it('one slot per integer key from 0, zeros included, heights relative to the largest count', () => {
    const hist = histogram({ '1': 2, '3': 4 }, { width: 100, height: 50 });
    expect(hist.bars.map((b) => [b.key, b.count])).toEqual([[0, 0], [1, 2], [2, 0], [3, 4]]);
    expect(hist.bars[3]).toMatchObject({ height: 50, y: 0 });
    expect(hist.bars[1]).toMatchObject({ height: 25, y: 25 });
    expect(hist.bars[1]!.x).toBeCloseTo(27.5);
    expect(hist.maxCount).toBe(4);
  });

  it('bins a wide axis: H = 10M steps makes at most MAX_BARS bars (it made one per integer: 1.7 GB in the webview)', () => {
    const counts = { '3': 5, '4': 2, '10000000': 1 };
    const started = performance.now();
    const hist = histogram(counts, { width: 360, height: 140 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(hist.bars.length).toBeLessThanOrEqual(MAX_BARS);
    expect(hist.binWidth).toBe(Math.ceil(10_000_001 / MAX_BARS));
    expect(hist.bars.reduce((n, b) => n + b.count, 0)).toBe(8);
    expect(hist.bars[0]).toMatchObject({ key: 0, count: 7 });
    expect(barKeys(hist.bars[0]!)).toBe(`0–${(hist.binWidth - 1).toLocaleString('en-US')}`);
    const last = hist.bars[hist.bars.length - 1]!;
    expect(last).toMatchObject({ to: 10_000_000, count: 1 });
    expect(last.x + last.width).toBeLessThanOrEqual(360);
    expect(barKeys({ key: 7, to: 7 })).toBe('7');
  });

  it('ignores keys that are not counts of steps', () => {
    expect(histogram({ 'x': 3, '-1': 2, '1.5': 1 }, { width: 10, height: 10 }).bars).toEqual([expect.objectContaining({ key: 0, count: 0, height: 0 })]);
  });
});

describe('penalty zones of the step-count histogram', () => {
  it('card: H ≤ 1 and H ≥ Hλ', () => {
    expect(penaltyZones(0, 40, { penalty: 'card', maxSteps: 30 })).toEqual([
      { from: 0, to: 1, label: 'H ≤ 1' }, { from: 30, to: 40, label: 'H ≥ 30' },
    ]);
  });

  it('reference: H < 2 and H > 30, whatever Hλ says', () => {
    expect(penaltyZones(0, 35, { penalty: 'reference', maxSteps: 10 })).toEqual([
      { from: 0, to: 1, label: 'H < 2' }, { from: 31, to: 35, label: 'H > 30' },
    ]);
  });

  it('only zones inside the plotted range', () => {
    expect(penaltyZones(2, 8, { penalty: 'card', maxSteps: 30 })).toEqual([]);
    expect(penaltyZones(0, 5, { penalty: 'card', maxSteps: 5 })).toEqual([{ from: 0, to: 1, label: 'H ≤ 1' }, { from: 5, to: 5, label: 'H ≥ 5' }]);
  });
});

describe('calibration points', () => {
  it('a point per non-empty bin at (mean score, share correct), larger for fuller bins', () => {
    const bins = [
      { low: 0, high: 0.5, count: 0, meanScore: null, fractionCorrect: null },
      { low: 0.5, high: 1, count: 4, meanScore: 0.75, fractionCorrect: 0.5 },
      { low: 0.9, high: 1, count: 1, meanScore: 1.2, fractionCorrect: 1 },
    ];
    const points = calibrationPoints(bins, { width: 200, height: 100 });
    expect(points.map((p) => [p.cx, p.cy])).toEqual([[150, 50], [200, 0]]);
    expect(points[0]!.r).toBeGreaterThan(points[1]!.r);
  });
});

describe('axis ticks and words', () => {
  it('integer ticks cover both ends', () => {
    expect(integerTicks(0, 3, 8)).toEqual([0, 1, 2, 3]);
    const ticks = integerTicks(0, 100, 8);
    expect(ticks[0]).toBe(0);
    expect(ticks[ticks.length - 1]).toBe(100);
    expect(ticks.length).toBeLessThanOrEqual(10);
    expect(integerTicks(5, 5, 8)).toEqual([5]);
  });

  it('AUROC in words', () => {
    expect(aurocWords(null)).toMatch(/needs both correct and incorrect/);
    expect(aurocWords(0.5)).toMatch(/chance/);
    expect(aurocWords(0.95)).toMatch(/well/);
    expect(aurocWords(0.2)).toMatch(/incorrect answers above correct/);
  });
});
