/** A Run Dashboard chart's drill-down opens the explorer with the query the chart means, which the engine accepts as it is. */
import { describe, expect, it } from 'vitest';
import { chartQuery } from '../../../../src/core/explore/chartQueries';
import { parseExplorerQuery } from '../../../../src/core/explore/explorerQuery';
import { queryTitle } from '../../../../src/core/explore/explorerWords';

describe('chartQuery', () => {
  it('gives each chart its meaning as a filter or sort', () => {
    expect(queryTitle(chartQuery('chart-false-positives'), 7)).toBe('suspected FP · by suspected FP ↓ · 7');
    expect(queryTitle(chartQuery('chart-accuracy'), 3)).toBe('incorrect · 3');
    expect(queryTitle(chartQuery('chart-steps'), 30)).toBe('all rollouts · by H ↓ · 30');
    expect(queryTitle(chartQuery('decisions-run-1'), 4)).toBe('not kept · by PROF decision ↑ · 4');
    expect(queryTitle(chartQuery('chart-unknown'), 30)).toBe('all rollouts · 30');
  });

  it('is a canonical query the engine takes unchanged', () => {
    for (const key of ['chart-false-positives', 'chart-accuracy', 'chart-signal', 'chart-steps', 'chart-length', 'chart-auroc', 'decisions-x', 'other']) {
      expect(parseExplorerQuery(chartQuery(key))).toEqual(chartQuery(key));
    }
  });
});
