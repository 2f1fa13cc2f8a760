/**
 * The editor's analysis worker on a file on disk larger than one string can be (V8: ~512 MB): it
 * used to read the file into one string, which fails there; it now streams it. The real worker
 * (`dist/analysisWorker.js`), every summary sent to a host, is timed against `prof-lens report`
 * on the same file in the same run (paired runs, each in a fresh process), and its peak memory
 * set against the file's size.
 */
import { closeSync, existsSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { analyseWithModel } from '../../src/scoring/analysis/modelAnalysis';
import { ModelScorers } from '../../src/scoring/scorers/modelScorers';
import { Worker } from 'node:worker_threads';
import { emptyQuery } from '../../src/core/explore/explorerQuery';
import type { WorkerToHost } from '../../src/protocol/analysis';
import { bareRead } from './longLine';
import type { BenchResult } from './types';

const DIR = 'test-output/bench';
const TARGET_BYTES = 600 * 1024 * 1024;

/** A verl-like dump with step scores, written a megabyte at a time (it cannot be one string either). */
function writeLargeDump(path: string): void {
  const fd = openSync(path, 'w');
  try {
    let written = 0;
    let pending: string[] = [];
    let pendingBytes = 0;
    for (let i = 0; written + pendingBytes < TARGET_BYTES; i++) {
      const steps = Array.from({ length: 4 + (i % 9) }, (_, k) => `Step ${k + 1}: ${k} + ${i % 7} = ${k + (i % 7)}, so we carry on with the next part.`);
      steps.push(`The answer is \\boxed{${i % 13}}.`);
      const line = JSON.stringify({ input: `Problem ${i >> 3}: what is ${i % 13}?`, output: steps.join('\n\n'), gts: String(i % 11), score: i % 3 === 0 ? 1 : 0, uid: `u${i >> 3}`, step_scores: steps.map((_, k) => ((k * 37 + i) % 100) / 100) }) + '\n';
      pending.push(line);
      pendingBytes += line.length;
      if (pendingBytes > 1 << 20) {
        written += writeSync(fd, pending.join(''));
        pending = [];
        pendingBytes = 0;
      }
    }
    writeSync(fd, pending.join(''));
  } finally {
    closeSync(fd);
  }
}

/** The worker's analysis of a file on disk; returns the number of rollouts. */
export async function analyseFromDisk(path: string): Promise<number> {
  const { analysis } = await analyseWithModel({ kind: 'path', path }, {
    fileName: path, settings: {}, scorer: 'auto', model: null, models: new ModelScorers(), signal: new AbortController().signal,
  });
  return analysis.rollouts.length;
}

interface ChildRun {
  seconds: number;
  rss: number;
}

/** One task of this module in a child process (see main.ts's `child` mode): its seconds and peak RSS. */
export function childRun(task: string, path: string): ChildRun {
  const out = spawnSync(process.execPath, [process.argv[1]!, 'child', task, path], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (out.status !== 0) throw new Error(out.stderr);
  const [seconds, rss] = out.stdout.trim().split('\n').pop()!.split(' ').map(Number);
  return { seconds: seconds!, rss: rss! };
}

/**
 * The real analysis worker (`dist/analysisWorker.js`) asked to analyse `path` from disk, with a
 * host that takes every chunk of summaries as the editor's client does (and, unlike it, lets them
 * go), then asks the Rollout Explorer for its first page, which builds the explorer's table.
 */
async function editorWorker(path: string): Promise<number> {
  const worker = new Worker(join(process.cwd(), 'dist/analysisWorker.js'));
  try {
    const rollouts = await new Promise<number>((resolve, reject) => {
      let received = 0;
      worker.on('error', reject);
      worker.on('message', (message: WorkerToHost) => {
        if (message.type === 'rollouts') {
          received += message.rollouts.length;
          worker.postMessage({ type: 'more', requestId: 1 });
        } else if (message.type === 'analysed') {
          if (message.summary.rolloutCount !== received) reject(new Error(`received ${received} of ${message.summary.rolloutCount} rollouts`));
          resolve(received);
        } else if (message.type === 'failed') reject(new Error(message.message));
      });
      worker.postMessage({ type: 'analyse', requestId: 1, documentKey: path, fileName: path, source: { kind: 'path', path }, settings: {}, scorer: 'auto', model: null });
    });
    const page = await new Promise<WorkerToHost>((resolve) => {
      worker.once('message', resolve);
      worker.postMessage({ type: 'explore', requestId: 2, documentKey: path, call: { method: 'query', query: emptyQuery(), offset: 0, limit: 100 } });
    });
    if (page.type !== 'explored') throw new Error(`the explorer answered ${page.type === 'failed' ? page.message : page.type}`);
    return rollouts;
  } finally {
    await worker.terminate();
  }
}

/** `prof-lens report --json` on `path` (the built `dist/cli.js`), in this process, its output let go. */
async function report(path: string): Promise<void> {
  const { runCli } = require(join(process.cwd(), 'dist/cli.js')) as typeof import('../../src/cli/main');
  const code = await runCli(['report', path, '--json', '--no-cache'], { stdout() {}, stderr() {}, isStderrTty: false, cwd: process.cwd() });
  if (code !== 0) throw new Error(`report exited with ${code}`);
}

/** The child's side: run one task, print its seconds and the peak RSS in bytes. */
export async function child(task: string, path: string): Promise<void> {
  const started = performance.now();
  if (task === 'large-worker') await editorWorker(path);
  else if (task === 'large-report') await report(path);
  else throw new Error(`unknown task ${task}`);
  console.log(`${(performance.now() - started) / 1000} ${process.resourceUsage().maxRSS * 1024}`);
}

const MB = 1048576;

export async function run(): Promise<BenchResult[]> {
  mkdirSync(DIR, { recursive: true });
  const path = join(DIR, 'dump-600mb.jsonl');
  if (!existsSync(path)) writeLargeDump(path);
  const size = statSync(path).size;
  const before = await readFile(path, 'utf8').then(() => 'read as one string', (error: NodeJS.ErrnoException) => error.code ?? error.message);
  let started = performance.now();
  await bareRead(path);
  const bare = (performance.now() - started) / 1000;
  // Paired: report, then the worker, each in a fresh process, twice; the median of each pair's ratio.
  const pairs: { report: ChildRun; worker: ChildRun }[] = [];
  for (let round = 0; round < 2; round++) pairs.push({ report: childRun('large-report', path), worker: childRun('large-worker', path) });
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length % 2 ? sorted[sorted.length >> 1]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  };
  const reportSeconds = median(pairs.map((p) => p.report.seconds));
  const workerSeconds = median(pairs.map((p) => p.worker.seconds));
  const throughput = median(pairs.map((p) => p.report.seconds / p.worker.seconds));
  const workerRss = median(pairs.map((p) => p.worker.rss));
  const reportRss = median(pairs.map((p) => p.report.rss));
  const range = (values: number[], digits: number): string => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
  const reportBaseline = { name: '`prof-lens report --json` on the same file, same run', value: reportSeconds };
  return [
    { name: `baseline: bare read (${(size / MB).toFixed(0)} MB, 1 MB reads)`, value: bare, unit: 's', note: `the old one-string read: ${before}` },
    { name: 'baseline: prof-lens report --json (in a child)', value: reportSeconds, unit: 's', note: `runs ${range(pairs.map((p) => p.report.seconds), 1)} s; peak ${(reportRss / MB).toFixed(0)} MB` },
    {
      name: 'editor worker: analyse from disk, send every summary, first explorer page',
      value: workerSeconds,
      unit: 's',
      baseline: reportBaseline,
      ratio: throughput,
      note: `ratio = worker throughput / report's (median of paired runs, ${range(pairs.map((p) => p.report.seconds / p.worker.seconds), 2)}); target ≥ 0.70`,
    },
    { name: 'editor worker peak RSS / file size', value: workerRss / size, unit: '×', note: `peak ${range(pairs.map((p) => p.worker.rss / MB), 0)} MB; target ≤ 1.5×` },
  ];
}
