/**
 * `prof-lens trend` on a terminal: per run, one row per training step with the figures a person
 * watching a run looks at first; the problems of its files below. Scripts use `--json` or `--csv`.
 */
import type { RunSummary } from '../../core/run/runSummary';
import type { StepSummary } from '../../core/run/stepSummary';

interface Column {
  head: string;
  cell: (s: StepSummary) => string;
}

const num = (v: number | null, digits = 0): string => (v === null ? '—' : v.toFixed(digits));
const share = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

const COLUMNS: readonly Column[] = [
  { head: 'step', cell: (s) => String(s.step) },
  { head: 'rollouts', cell: (s) => String(s.rollouts) },
  { head: 'groups', cell: (s) => String(s.groups) },
  { head: 'accuracy', cell: (s) => share(s.accuracy) },
  { head: 'all ✓', cell: (s) => String(s.allCorrectGroups) },
  { head: 'all ✗', cell: (s) => String(s.allIncorrectGroups) },
  { head: 'kept', cell: (s) => String(s.kept) },
  { head: 'dropped', cell: (s) => String(s.dropped) },
  { head: 'susp. FP', cell: (s) => `${s.suspectedFalsePositives} (${share(s.falsePositiveShare)})` },
  { head: 'penalised', cell: (s) => String(s.penalised) },
  { head: 'H mean/med/p90', cell: (s) => `${num(s.stepsMean, 1)}/${num(s.stepsMedian, 1)}/${num(s.stepsP90)}` },
  { head: 'chars mean/p90', cell: (s) => `${num(s.responseCharsMean)}/${num(s.responseCharsP90)}` },
  { head: 'AUROC', cell: (s) => num(s.auroc, 3) },
];

function table(steps: readonly StepSummary[]): string[] {
  const rows = steps.map((s) => COLUMNS.map((c) => c.cell(s) + (c.head === 'AUROC' && s.approximate ? '*' : '')));
  const widths = COLUMNS.map((c, i) => Math.max([...c.head].length, ...rows.map((r) => [...r[i]!].length)));
  const pad = (cells: readonly string[]): string => cells.map((cell, i) => ' '.repeat(widths[i]! - [...cell].length) + cell).join('  ');
  return [pad(COLUMNS.map((c) => c.head)), ...rows.map(pad)];
}

/** The terminal report of several runs; `rule`: the curation rule's line when it is not PROF (as `report` prints it). */
export function renderTrend(runs: readonly RunSummary[], scorerLabel: string, rule: string | null = null): string {
  const out: string[] = rule === null ? [] : [rule, ''];
  for (const run of runs) {
    out.push(`run: ${run.path} (${run.files} file${run.files === 1 ? '' : 's'}, ${run.steps.length} step${run.steps.length === 1 ? '' : 's'}) · scored by ${scorerLabel}`);
    if (run.layout) out.push(`  read as: ${run.layout}`);
    if (run.steps.length > 0) out.push(...table(run.steps).map((line) => `  ${line}`));
    if (run.steps.some((s) => s.approximate)) out.push('  * the step spans several files: its AUROC and response-length p90 are weighted means of theirs');
    out.push('');
  }
  out.push('accuracy = correct / (correct + incorrect); all ✓ / all ✗ = groups where every / no rollout is correct (no GRPO signal);');
  out.push('susp. FP = correct answers with distrusted steps (share of ranked correct); H = steps per ranked rollout.');
  return out.join('\n') + '\n';
}
