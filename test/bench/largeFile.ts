/**
 * The editor worker's read of a file on disk larger than one string can be (V8: ~512 MB): it used
 * to read the file into one string, which fails there; it now streams it. Timed against a bare
 * read of the same file in the same run; peak memory measured in a child process.
 */
import { closeSync, existsSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { analyseWithModel } from '../../src/scoring/analysis/modelAnalysis';
import { ModelScorers } from '../../src/scoring/scorers/modelScorers';
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

function childPeakRss(path: string): number {
  const out = spawnSync(process.execPath, [process.argv[1]!, 'child', 'worker-read', path], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(out.stderr);
  return Number(out.stdout.trim().split('\n').pop());
}

export async function run(): Promise<BenchResult[]> {
  mkdirSync(DIR, { recursive: true });
  const path = join(DIR, 'dump-600mb.jsonl');
  if (!existsSync(path)) writeLargeDump(path);
  const size = statSync(path).size;
  const before = await readFile(path, 'utf8').then(() => 'read as one string', (error: NodeJS.ErrnoException) => error.code ?? error.message);
  let started = performance.now();
  await bareRead(path);
  const bare = (performance.now() - started) / 1000;
  started = performance.now();
  const rollouts = await analyseFromDisk(path);
  const seconds = (performance.now() - started) / 1000;
  const rss = childPeakRss(path);
  const baseline = { name: 'bare 1 MB reads of the same file', value: bare };
  return [
    { name: `baseline: bare read (${(size / 1048576).toFixed(0)} MB, ${rollouts} rollouts)`, value: bare, unit: 's' },
    { name: 'editor worker: analyse the file from disk (streamed)', value: seconds, unit: 's', baseline, ratio: seconds / bare, note: `lower is better; the old one-string read: ${before}` },
    { name: 'editor worker peak RSS / file size', value: rss / size, unit: '×', note: `peak ${(rss / 1048576).toFixed(0)} MB` },
  ];
}
