/**
 * What `prof-lens trend` prints for scripts: the JSON of docs/cli.md §trend --json (`{"runs": [{"path", "steps"}],
 * "scorer", "settings"}`, steps ascending, each step's contract fields first) and CSV with one row
 * per step and run. Pure, so the editor can export the same thing.
 */
import type { RunSummary } from './runSummary';
import type { StepSummary } from './stepSummary';
import { csvCell } from '../presentation/csvCell';

/** The machine-readable trend. */
export interface TrendJson {
  runs: { path: string; files: number; steps: StepSummary[]; problems: RunSummary['problems']; layout?: string }[];
  scorer: unknown;
  settings: unknown;
}

export function trendJson(runs: readonly RunSummary[], scorer: unknown, settings: unknown): TrendJson {
  return { runs: runs.map((r) => ({ path: r.path, files: r.files, steps: r.steps, problems: r.problems, ...(r.layout ? { layout: r.layout } : {}) })), scorer, settings };
}

/** Columns of the CSV, before the per-reason ones. */
const CSV_COLUMNS: readonly (keyof StepSummary)[] = [
  'step', 'rollouts', 'groups', 'correct', 'incorrect', 'accuracy', 'allCorrectGroups', 'allIncorrectGroups',
  'kept', 'dropped', 'notRanked', 'suspectedFalsePositives', 'falsePositiveShare', 'penalised',
  'stepsMean', 'stepsMedian', 'stepsP90', 'responseCharsMean', 'responseCharsP90', 'auroc',
];

/** A CSV field: numbers to six significant digits; text through the one CSV cell writer (run folders and file names come from disk). */
function field(value: unknown): string {
  return csvCell(typeof value === 'number' && !Number.isInteger(value) ? Number(value.toPrecision(6)) : value);
}

/** One header line, then one line per step and run; a column per reason code found in any run. */
export function trendCsv(runs: readonly RunSummary[]): string {
  const reasons = [...new Set(runs.flatMap((r) => r.steps.flatMap((s) => Object.keys(s.byReason))))].sort();
  const header = ['run', ...CSV_COLUMNS, ...reasons.map((r) => `reason:${r}`), 'files'];
  const lines = [header.map(field).join(',')];
  for (const run of runs) {
    for (const step of run.steps) {
      const cells = [run.path, ...CSV_COLUMNS.map((c) => step[c]), ...reasons.map((r) => step.byReason[r] ?? 0), step.sources.map((s) => s.file).join(' ')];
      lines.push(cells.map(field).join(','));
    }
  }
  return lines.join('\n') + '\n';
}
