/**
 * Where the user waits in the editor, beside the CLI: the figures `test/e2e/timings.e2e.ts` wrote
 * to test-output/e2e/timings.json (the real verl dump opened in a fresh and a warm window, panels
 * and Explorer answers), each against `prof-lens report` on the same file as a whole process,
 * measured here (median of three). Nothing is printed for the editor when the e2e test has not run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { median } from './exploreData';
import type { BenchResult } from './types';

const TIMINGS = 'test-output/e2e/timings.json';
const FILE = 'test/fixtures/real/verl_gsm8k_multiturn_tool_step2.jsonl';
const RUNS = 3;

interface OpenTimes { tabMs: number; firstDecorationMs: number; firstCodeLensMs: number; analysedMs: number }
interface Timings {
  date: string;
  file: string;
  /** The same report, timed by the e2e run on its own machine state (its load at that moment). */
  cliReportMs?: number;
  fresh?: OpenTimes;
  warm?: OpenTimes;
  panels: Record<string, number>;
}

/** Targets: click → first decoration, command → panel content, a click → an Explorer answer. */
const TARGET_MS: Record<string, number> = {
  'fresh.firstDecorationMs': 3_000, 'warm.firstDecorationMs': 1_500,
  groupPanelMs: 500, dashboardMs: 500, explorerOpenMs: 500, compareMs: 500,
  explorerFilterMs: 150, explorerSortMs: 150, explorerSearchMs: 150, explorerPageMs: 150,
};

function timeReport(): number {
  const started = performance.now();
  const out = spawnSync(process.execPath, ['dist/cli.js', 'report', FILE, '--json', '--no-cache'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (out.status !== 0) throw new Error(`prof-lens report exited ${out.status}: ${out.stderr}`);
  return performance.now() - started;
}

export async function run(): Promise<BenchResult[]> {
  const report = median(Array.from({ length: RUNS }, timeReport));
  const baseline = { name: 'prof-lens report, whole process, same file', value: report };
  const results: BenchResult[] = [{ name: 'baseline: report of the real verl dump (1,024 rollouts)', value: report, unit: 'ms' }];
  if (!existsSync(TIMINGS)) {
    results[0]!.note = `no ${TIMINGS}: run test/e2e/timings.e2e.ts for the editor's figures`;
    return results;
  }
  const timings = JSON.parse(readFileSync(TIMINGS, 'utf8')) as Timings;
  const figures: [string, number | undefined][] = [
    ...(['fresh', 'warm'] as const).flatMap((w) => (['firstDecorationMs', 'firstCodeLensMs', 'analysedMs'] as const).map((k): [string, number | undefined] => [`${w}.${k}`, timings[w]?.[k]])),
    ...Object.entries(timings.panels),
  ];
  const sameRun = timings.cliReportMs;
  for (const [name, value] of figures) {
    if (value === undefined) continue;
    const target = TARGET_MS[name];
    const notes = [
      `e2e of ${timings.date.slice(0, 16)}`,
      ...(sameRun ? [`${(value / sameRun).toFixed(2)}× the report timed in that e2e run (${Math.round(sameRun)} ms)`] : []),
      ...(target === undefined ? [] : [`target ≤ ${target} ms${value > target ? `: missed by ${Math.round(value - target)} ms` : ': met'}`]),
    ];
    results.push({ name: `editor: ${name.replace(/Ms$/, '')}`, value, unit: 'ms', baseline, ratio: value / report, note: notes.join('; ') });
  }
  return results;
}
