/**
 * A training run as one Explorer table: each step file's table (`buildExplorerTable`) given its
 * run columns (the step of each row, its file, the health detectors it shows), then the files'
 * tables put end to end in run order. Rows are numbered in that order, so "file order" in a run's
 * table is step files in order, then lines. The tables are the column store the single-file
 * Explorer uses: filters, sorts and searches run over a run exactly as over one file.
 */
import type { ExplorerTable, RunColumns } from './explorerTable';
import { ExplorerTable as Table, MAX_REWARD_COLUMNS } from './explorerTable';

/** Gives one file's table its run columns: every row's step and health bits, all from `file`. */
export function asRunPart(table: ExplorerTable, file: string, steps: Int32Array, health: Uint8Array): ExplorerTable {
  if (steps.length !== table.count || health.length !== table.count) throw new Error(`a run part needs one step and one health value per row (${table.count} rows; ${steps.length} steps, ${health.length} health values)`);
  table.run = { step: steps, file: new Int32Array(table.count), files: [file], health };
  return table;
}

const COPIED = ['line', 'index', 'item', 'outcome', 'steps', 'meanScore', 'weakestScore', 'weakestStep', 'consistency', 'reason', 'flags', 'strength', 'rules', 'responseChars'] as const;

/**
 * The tables end to end, in order, as one (each must have run columns). Strings and groups are
 * numbered anew; a group is named by its step (`step 12 · g3`), as ids repeat from step to step;
 * evidence words are copied, so no part's analysis is held.
 */
export function concatTables(parts: readonly ExplorerTable[]): ExplorerTable {
  const count = parts.reduce((n, p) => n + p.count, 0);
  const out = new Table(count);
  const run: RunColumns = { step: new Int32Array(count), file: new Int32Array(count), files: [], health: new Uint8Array(count) };
  out.run = run;
  const fileNumbers = new Map<string, number>();
  // Each group named as its own file names it (the instruction its file's groups share taken away).
  const questionNames = new Map<string, string>();
  out.nameQuestion = (question) => questionNames.get(question) ?? question;
  let at = 0;
  for (const part of parts) {
    const partRun = part.run;
    if (!partRun) throw new Error('only tables with run columns are put end to end');
    for (const name of COPIED) (out[name] as { set(from: ArrayLike<number>, at: number): void }).set(part[name], at);
    run.step.set(partRun.step, at);
    run.health.set(partRun.health, at);
    const files = partRun.files.map((f) => {
      let n = fileNumbers.get(f);
      if (n === undefined) fileNumbers.set(f, (n = run.files.length)), run.files.push(f);
      return n;
    });
    const groupBase = out.groupIds.length;
    // A part that is itself a run's table has its groups named already.
    const isNamed = part.count > 0 && partRun.files.length > 1;
    const firstRows = isNamed ? null : firstRowOfGroups(part);
    part.groupIds.forEach((id, g) => {
      const first = firstRows?.[g] ?? -1;
      out.groupIds.push(first === -1 ? id : `step ${partRun.step[first] as number} · ${id}`);
      const prompt = part.groupPrompts[g] ?? '';
      out.groupPrompts.push(prompt);
      if (!questionNames.has(prompt)) questionNames.set(prompt, part.groupName(g));
    });
    const stringIds = new Int32Array(part.strings.size);
    for (let s = 0; s < stringIds.length; s++) {
      const value = part.strings.value(s);
      stringIds[s] = out.strings.id(value, value);
    }
    for (let row = 0; row < part.count; row++) {
      const to = at + row;
      run.file[to] = files[partRun.file[row] as number] as number;
      out.group[to] = groupBase + (part.group[row] as number);
      const e = part.extracted[row] as number;
      const g = part.gold[row] as number;
      out.extracted[to] = e === -1 ? -1 : (stringIds[e] as number);
      out.gold[to] = g === -1 ? -1 : (stringIds[g] as number);
      if (part.rules[row] !== 0 || part.isUnscored(row)) out.setWords(to, part.wordsAt(row));
    }
    for (const [name, values] of part.rewards) {
      let column = out.rewards.get(name);
      if (!column) {
        if (out.rewards.size >= MAX_REWARD_COLUMNS) {
          out.rewardsLeftOut.add(name);
          continue;
        }
        out.rewards.set(name, (column = new Float64Array(count).fill(Number.NaN)));
      }
      column.set(values, at);
    }
    for (const name of part.rewardsLeftOut) out.rewardsLeftOut.add(name);
    at += part.count;
  }
  return out;
}

/** Each group's first row (-1 for a group with none). */
function firstRowOfGroups(table: ExplorerTable): Int32Array {
  const first = new Int32Array(table.groupIds.length).fill(-1);
  for (let row = table.count - 1; row >= 0; row--) first[table.group[row] as number] = row;
  return first;
}
