/**
 * Tie marking in one large group: a group of a million rollouts whose consistencies all tie
 * (every removal is then a tie-break by file order) against the same group with distinct
 * consistencies, in the same run. Marking ties asked each removed rollout's neighbours in turn,
 * which is quadratic in the tie (200,000 ties: minutes); it is one pass now, so the tied group
 * costs about what the untied one does (the sort dominates both). The group view's what-if runs
 * the same filter in the webview, measured here through its own `recompute`.
 */
import type { GroupMember } from '../../src/core/rules/groups';
import { decideAll } from '../../src/core/rules/decideList';
import { resolveSettings } from '../../src/core/profSettings';
import { recompute } from '../../webview/groupModel';
import type { GroupData, GroupRow } from '../../src/protocol/panel';
import type { BenchResult } from './types';

const N = 1_000_000;
const WHAT_IF_ROWS = 200_000;

function group(n: number, tied: boolean): GroupMember[] {
  return Array.from({ length: n }, (_, i) => ({ id: i, group: 'g', correct: i % 2 === 0, scores: [tied ? 0.5 : (i % 997) / 997, 0.5, 0.5] }));
}

function bestOf(rounds: number, work: () => unknown): number {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    work();
    best = Math.min(best, (performance.now() - started) / 1000);
  }
  return best;
}

/** A group view's data for `n` tied rows, as the host sends it (only what `recompute` reads). */
function groupData(n: number): GroupData {
  const settings = resolveSettings({});
  const rows = Array.from({ length: n }, (_, i) => ({
    id: i, outcome: i % 2 === 0 ? 'correct' : 'incorrect', stepScores: [0.5, 0.5, 0.5], stepNotes: [],
    decision: { id: i, kept: false, reason: 'dropped-tie', steps: 3, score: 0.5, consistency: 0.5, penalised: false, rank: 1 },
  })) as unknown as GroupRow[];
  return { group: 'g', settings, rows } as unknown as GroupData;
}

export function run(): Promise<BenchResult[]> {
  const settings = resolveSettings({});
  const untiedGroup = group(N, false);
  const tiedGroup = group(N, true);
  const untied = bestOf(3, () => decideAll(untiedGroup, settings));
  let ties = 0;
  const tied = bestOf(3, () => (ties = decideAll(tiedGroup, settings).decisions.filter((d) => d.reason === 'dropped-tie').length));
  const data = groupData(WHAT_IF_ROWS);
  const whatIf = bestOf(3, () => recompute(data, null));
  const baseline = { name: `the same group, no ties (${N.toLocaleString('en-US')} rollouts)`, value: untied };
  return Promise.resolve([
    { name: `baseline: decide a group of ${N.toLocaleString('en-US')} distinct rollouts`, value: untied, unit: 's' },
    { name: `decide a group of ${N.toLocaleString('en-US')} tied rollouts`, value: tied, unit: 's', baseline, ratio: tied / untied, note: `${ties.toLocaleString('en-US')} dropped-tie; lower is better` },
    { name: `group view what-if, ${WHAT_IF_ROWS.toLocaleString('en-US')} tied rows (webview code)`, value: whatIf, unit: 's' },
  ]);
}
