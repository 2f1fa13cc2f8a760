/**
 * PROF's decisions for a whole table of rollouts, group by group, as `decideAll` takes them for a
 * list: the same filter and false-positive rules on the same members in the same order, but the
 * groups are found by sorting row numbers (no list per group, no member object kept per rollout).
 */
import type { RolloutTable } from './rolloutTable';
import type { ProfSettings } from './profSettings';
import type { RankInput } from './prof';
import { decideGroup } from './prof';
import { falsePositivesOf } from './groups';
import type { Decision } from './model';

/** Decides every group of `table` and records the decisions in it. */
export function decideTable(table: RolloutTable, settings: ProfSettings): void {
  const n = table.count;
  const groups = table.groups.size;
  // Rows by group, in file order within each group (a counting sort on the group numbers).
  const starts = new Int32Array(groups + 1);
  for (let row = 0; row < n; row++) starts[table.groupNumber(row) + 1]!++;
  for (let g = 0; g < groups; g++) starts[g + 1]! += starts[g]!;
  const next = starts.slice(0, groups);
  const order = new Int32Array(n);
  for (let row = 0; row < n; row++) order[next[table.groupNumber(row)]!++] = row;
  for (let g = 0; g < groups; g++) {
    const from = starts[g]!;
    const to = starts[g + 1]!;
    const members = new Array<RankInput>(to - from);
    for (let k = from; k < to; k++) members[k - from] = member(table, order[k]!);
    const decisions = decideGroup(members, settings, table.groups.value(g));
    const falsePositives = falsePositivesOf(members, decisions, settings);
    for (let k = from; k < to; k++) table.setDecision(order[k]!, decisions[k - from] as Decision, falsePositives[k - from]!);
  }
}

function member(table: RolloutTable, row: number): RankInput {
  const kind = table.outcome(row).kind;
  return { id: row, correct: kind === 'correct' ? true : kind === 'incorrect' ? false : null, nonBinary: kind === 'non-binary', scores: table.isScored(row) ? table.stepScores(row) : null };
}
