import { describe, expect, it } from 'vitest';
import { columnWidth, linePath, linearScale, nearestIndex, niceMax, niceTicks, reasonOrder, stackedColumns, unionSteps } from '../../../webview/run/runGeometry';

describe('Run Dashboard geometry', () => {
  it('maps steps and values linearly; a single step sits in the middle', () => {
    const x = linearScale([10, 50], [0, 400]);
    expect([x(10), x(30), x(50)]).toEqual([0, 200, 400]);
    expect(linearScale([7, 7], [0, 400])(7)).toBe(200);
    const y = linearScale([0, 1], [160, 0]);
    expect([y(0), y(0.5), y(1)]).toEqual([160, 80, 0]);
  });

  it('puts ticks on round values and tops axes at the next round value', () => {
    expect(niceTicks(0, 1, 4)).toEqual([0, 0.5, 1]);
    expect(niceTicks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(10, 80, 8)).toEqual([10, 20, 30, 40, 50, 60, 70, 80]);
    expect(niceTicks(0, 4096, 4)).toEqual([0, 2000, 4000]);
    expect(niceMax([3, 12.5, null])).toBe(15);
    expect(niceMax([3, 9], 32)).toBe(40);
    expect(niceMax([])).toBe(1);
  });

  it('breaks a line where a step has no value (AUROC undefined, no graded rollout)', () => {
    expect(linePath([{ x: 0, y: 10 }, { x: 10, y: 20 }, { x: 20, y: null }, { x: 30, y: 5 }, { x: 40, y: 6 }])).toBe('M0.0,10.0L10.0,20.0M30.0,5.0L40.0,6.0');
    expect(linePath([{ x: 0, y: null }])).toBe('');
  });

  it('finds the step nearest the pointer', () => {
    const xs = [0, 100, 200, 400];
    expect([nearestIndex(xs, -5), nearestIndex(xs, 49), nearestIndex(xs, 51), nearestIndex(xs, 310), nearestIndex(xs, 900)]).toEqual([0, 0, 1, 3, 3]);
    expect(nearestIndex([], 3)).toBe(-1);
  });

  it('lists the steps of several runs once, ascending', () => {
    expect(unionSteps([{ steps: [{ step: 20 }, { step: 10 }] }, { steps: [{ step: 30 }, { step: 10 }] }])).toEqual([10, 20, 30]);
  });

  it('orders reasons kept, dropped, not ranked, and keeps codes it has never seen (ties)', () => {
    expect(reasonOrder(['not-ranked-no-outcome', 'dropped-tie', 'kept-small-group', 'dropped-conflict', 'kept', 'kept'])).toEqual(['kept', 'kept-small-group', 'dropped-conflict', 'dropped-tie', 'not-ranked-no-outcome']);
  });

  it('stacks each step\'s rollouts by reason up to its total', () => {
    const x = linearScale([1, 2], [0, 100]);
    const y = linearScale([0, 10], [100, 0]);
    const segments = stackedColumns([{ step: 1, byReason: { kept: 4, 'dropped-tie': 2 } }, { step: 2, byReason: { kept: 6 } }], ['kept', 'dropped-tie'], x, y, 10);
    expect(segments.map((s) => [s.step, s.reason, s.y, s.height])).toEqual([[1, 'kept', 60, 40], [1, 'dropped-tie', 40, 20], [2, 'kept', 40, 60]]);
    expect(segments[0]!.x).toBe(-5);
    expect([columnWidth(560, 7), columnWidth(560, 2000)]).toEqual([24, 1]);
  });
});
