/**
 * Memory per rollout: a file of tiny rollouts (`{"uid": …, "response": "a", "score": 0}`, about
 * 41 bytes a line, groups of eight, scored by the checker) analysed as `prof-lens report` does.
 * The analysis keeps its rollouts as columns; as one object graph per rollout it held about
 * 580 bytes of heap per rollout (measured on this machine the day the columns came: 1M rollouts,
 * 552 MB), and five million of them peaked at 3.7 GB. Measured: heap and array buffers held after
 * the analysis, per rollout, against the file's own bytes per rollout (same run); and the peak RSS
 * of `prof-lens report` on five million (a child process), against the 1.5 GB target.
 */
import { closeSync, existsSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { analysePath } from '../../src/scoring/analysis/analysePath';
import type { BenchResult } from './types';

const DIR = 'test-output/bench';

/** Writes `n` tiny rollouts (eight per group, alternating outcomes), a batch at a time. */
function writeTiny(path: string, n: number): void {
  const fd = openSync(path, 'w');
  try {
    let batch: string[] = [];
    for (let i = 0; i < n; i++) {
      batch.push(JSON.stringify({ uid: `g${i >> 3}`, response: 'a', score: i % 2 }));
      if (batch.length === 100_000) {
        writeSync(fd, batch.join('\n') + '\n');
        batch = [];
      }
    }
    if (batch.length) writeSync(fd, batch.join('\n') + '\n');
  } finally {
    closeSync(fd);
  }
}

function held(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Bytes held per rollout after analysing `path` as the CLI does (no texts kept). */
async function heapPerRollout(path: string): Promise<{ perRollout: number; rollouts: number; seconds: number }> {
  const before = held();
  const started = performance.now();
  const { analysis } = await analysePath(path, { keepText: false, rawOffsets: false, settings: {}, scorer: 'auto' });
  const seconds = (performance.now() - started) / 1000;
  const perRollout = (held() - before) / analysis.report.rollouts;
  // Kept alive until measured.
  if (analysis.report.rollouts === 0) throw new Error('no rollouts');
  return { perRollout, rollouts: analysis.report.rollouts, seconds };
}

/** Peak RSS and wall time of `prof-lens report --json` on `path`, in a child process. */
function reportPeak(path: string): { rss: number; seconds: number } {
  const cli = join(process.cwd(), 'dist/cli.js');
  const script = `require(${JSON.stringify(cli)}).runCli(['report', ${JSON.stringify(path)}, '--json', '--no-cache'], {stdout(){}, stderr(){}, isStderrTty:false, cwd:process.cwd()}).then(() => console.log(process.resourceUsage().maxRSS * 1024))`;
  const started = performance.now();
  const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(out.stderr);
  return { rss: Number(out.stdout.trim().split('\n').pop()), seconds: (performance.now() - started) / 1000 };
}

export async function run(): Promise<BenchResult[]> {
  mkdirSync(DIR, { recursive: true });
  const small = join(DIR, 'tiny-1m.jsonl');
  const large = join(DIR, 'tiny-5m.jsonl');
  if (!existsSync(small)) writeTiny(small, 1_000_000);
  if (!existsSync(large)) writeTiny(large, 5_000_000);
  const fileBytes = statSync(small).size / 1_000_000;
  const heap = await heapPerRollout(small);
  const peak = reportPeak(large);
  const baseline = { name: 'the file, bytes per rollout', value: fileBytes };
  return [
    { name: `baseline: file bytes per tiny rollout (${heap.rollouts.toLocaleString('en-US')} rollouts)`, value: fileBytes, unit: 'B' },
    { name: 'held after the analysis, per rollout (heap + array buffers)', value: heap.perRollout, unit: 'B', baseline, ratio: heap.perRollout / fileBytes, note: `analysed in ${heap.seconds.toFixed(1)} s; as objects per rollout: about 580 B` },
    { name: 'prof-lens report on 5,000,000 tiny rollouts: peak RSS', value: peak.rss / 1048576, unit: 'MB', note: `${peak.seconds.toFixed(1)} s; target ≤ 1,536 MB (before: 3,730 MB, 73 s)` },
  ];
}
