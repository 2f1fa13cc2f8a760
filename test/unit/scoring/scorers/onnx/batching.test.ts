import { describe, expect, it } from 'vitest';
import { planBatches, type BatchRow } from '../../../../../src/scoring/scorers/onnx/batching';

const row = (key: number, length: number): BatchRow => ({ key, ids: new Array<number>(length).fill(1), positions: [length - 1] });

describe('planBatches', () => {
  it('sorts by length and keeps each batch padded size under the budget', () => {
    const rows = [row(0, 50), row(1, 10), row(2, 30), row(3, 12), row(4, 31)];
    const batches = planBatches(rows, 64);
    expect(batches.map((b) => b.map((r) => r.key))).toEqual([[1, 3], [2, 4], [0]]);
    for (const b of batches) expect(b.length * Math.max(...b.map((r) => r.ids.length))).toBeLessThanOrEqual(64);
  });

  it('runs a row longer than the budget alone rather than dropping it', () => {
    expect(planBatches([row(0, 5), row(1, 500)], 64).map((b) => b.map((r) => r.key))).toEqual([[0], [1]]);
  });

  it('keeps every row exactly once', () => {
    const rows = Array.from({ length: 100 }, (_, i) => row(i, 1 + ((i * 37) % 90)));
    const keys = planBatches(rows, 256).flat().map((r) => r.key).sort((a, b) => a - b);
    expect(keys).toEqual(rows.map((r) => r.key));
  });
});
