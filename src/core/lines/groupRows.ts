/**
 * One row per group of an analysed file, in file order: its readable id, its name (the question
 * without the instruction every group shares), where it starts, its sizes and what PROF kept, and
 * how many of its rollouts a tie decided. What `report --json` lists and the terminal's group table
 * shows the first of.
 */
import { groupIdsOfAnalysis, groupNamesOfAnalysis, type FileAnalysis, type RolloutBrief } from '../report/fileAnalysis';
import type { Decision, OutcomeKind } from '../model';

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

/** Every group's row, in file order of its first rollout (with columns, read from them: no rollout is made). */
export function groupRowsOf(a: FileAnalysis): GroupRow[] {
  const names = groupNamesOfAnalysis(a, Infinity);
  const ids = groupIdsOfAnalysis(a);
  const rows = new Map<string, GroupRow>();
  const count = (group: string, id: number, line: number, outcome: OutcomeKind, decision: Decision): void => {
    let row = rows.get(group);
    if (!row) {
      row = { group: ids.get(group) ?? '', name: names.get(id) ?? '', line, n: 0, correct: 0, incorrect: 0, kept: 0, droppedByTie: 0 };
      rows.set(group, row);
    }
    row.n++;
    if (outcome === 'correct') row.correct++;
    else if (outcome === 'incorrect') row.incorrect++;
    if (decision.kept) row.kept++;
    if (decision.reason === 'dropped-tie') row.droppedByTie++;
  };
  const table = a.rows;
  if (table) {
    const into = { group: '', outcome: { kind: 'unknown', source: 'none' }, decision: null, responseChars: 0 } as unknown as RolloutBrief;
    for (let row = 0; row < table.count; row++) {
      const b = table.brief(row, into);
      count(b.group, row, table.line(row), b.outcome.kind, b.decision);
    }
  } else for (const r of a.rollouts) count(r.group, r.id, r.line, r.outcome.kind, r.decision);
  return [...rows.values()];
}
