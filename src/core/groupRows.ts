/**
 * One row per group of an analysed file, in file order: its readable id, its name (the question
 * without the instruction every group shares), where it starts, its sizes and what PROF kept, and
 * how many of its rollouts a tie decided. What `report --json` lists and the terminal's group table
 * shows the first of.
 */
import { eachRollout, groupNamesOfAnalysis, type FileAnalysis } from './fileAnalysis';
import { groupIds } from './decisionLines';

/** A group as the report lists it. */
export interface GroupRow {
  /** The readable id (`g3`, or the file's own uid), as decision lines name it. */
  group: string;
  /** Its question without the shared instruction, clipped. */
  name: string;
  /** 1-based line of its first rollout. */
  line: number;
  n: number;
  correct: number;
  incorrect: number;
  kept: number;
  /** Rollouts removed while one of the same outcome and consistency was kept: file order decided. */
  droppedByTie: number;
}

/** Every group's row, in file order of its first rollout. */
export function groupRowsOf(a: FileAnalysis): GroupRow[] {
  const names = groupNamesOfAnalysis(a, Infinity);
  const ids = groupIds(eachRollout(a));
  const rows = new Map<string, GroupRow>();
  for (const r of eachRollout(a)) {
    let row = rows.get(r.group);
    if (!row) {
      row = { group: ids.get(r.group) ?? '', name: names.get(r.id) ?? '', line: r.line, n: 0, correct: 0, incorrect: 0, kept: 0, droppedByTie: 0 };
      rows.set(r.group, row);
    }
    row.n++;
    if (r.outcome.kind === 'correct') row.correct++;
    else if (r.outcome.kind === 'incorrect') row.incorrect++;
    if (r.decision.kept) row.kept++;
    if (r.decision.reason === 'dropped-tie') row.droppedByTie++;
  }
  return [...rows.values()];
}
