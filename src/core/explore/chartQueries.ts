/**
 * A Run Dashboard chart's meaning as an explorer query, for **Explore this step**: the
 * suspected-false-positive chart opens the step's suspected false positives, the H chart its
 * rollouts by H (longest first), and so on. Pure: the dashboard names the chart by its key.
 */
import { QUERY_VERSION, type ExplorerQuery } from './explorerQuery';

/**
 * The query a chart's drill-down opens the explorer with (`chart-false-positives`, `decisions-<run>`
 * …; every rollout, in file order, for a chart it does not know).
 */
export function chartQuery(chart: string): ExplorerQuery {
  const query = (filter: ExplorerQuery['filter'], sort: ExplorerQuery['sort'] = null): ExplorerQuery => ({ version: QUERY_VERSION, filter, sort });
  switch (chart.replace(/^chart-/, '')) {
    case 'false-positives':
      return query({ suspectedFalsePositive: true }, { column: 'falsePositive', descending: true });
    case 'accuracy':
      return query({ outcomes: ['incorrect'] });
    case 'signal':
      return query({}, { column: 'group', descending: false });
    case 'steps':
      return query({}, { column: 'steps', descending: true });
    case 'length':
      return query({}, { column: 'responseChars', descending: true });
    case 'auroc':
      return query({}, { column: 'meanScore', descending: false });
    default:
      return chart.startsWith('decisions-') ? query({ kept: false }, { column: 'decision', descending: false }) : query({});
  }
}
