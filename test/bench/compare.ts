/**
 * `prof-lens compare` of two generated 50 MB dumps (written to a temporary folder and removed
 * afterwards) against one `prof-lens report` of one of them, in the same run: alternating, median
 * of three, each a run of the built command. Without a model the two sides are read at once, one
 * in a worker thread.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { median, writeExploreDump } from './exploreData';
import type { BenchResult } from './types';

const BYTES = 50 * 1024 * 1024;
const RUNS = 3;

/** One run of the built command (`dist/cli.js`), as a user runs it: its wall time in ms. */
function timeCli(argv: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['dist/cli.js', ...argv, '--no-cache'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`prof-lens ${argv.join(' ')} exited ${run.status}: ${run.stderr}`);
  return performance.now() - started;
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'prof-lens-compare-bench-'));
  try {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    const rollouts = writeExploreDump(a, { bytes: BYTES, seed: 11 });
    writeExploreDump(b, { bytes: BYTES, seed: 12 });
    const reports: number[] = [];
    const compares: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      reports.push(timeCli(['report', a, '--json']));
      compares.push(timeCli(['compare', a, b, '--json']));
    }
    const report = median(reports) / 1000;
    const compare = median(compares) / 1000;
    const mb = (statSync(a).size / 1048576).toFixed(0);
    const baseline = { name: `one report of a ${mb} MB dump`, value: report };
    return [
      { name: `baseline: report of one ${mb} MB dump (${rollouts.toLocaleString('en-US')} rollouts)`, value: report, unit: 's' },
      { name: `compare of two ${mb} MB dumps`, value: compare, unit: 's', baseline, ratio: compare / report, note: 'lower is better; target ≤ 2×' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
