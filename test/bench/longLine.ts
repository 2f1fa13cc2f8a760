/**
 * Reading a file whose one line is 200 MB (a runaway response), against a bare read of the same
 * file in the same run, and the reader's peak memory (measured in a child process) against the
 * line's size. Reading used to re-copy the pending bytes on every 1 MB read: 43 s and 1.0 GB.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readFileLines } from '../../src/scoring/analysis/fileLines';
import { analyseFromDisk } from './largeFile';
import type { BenchResult } from './types';

const DIR = 'test-output/bench';
const LINE_BYTES = 200 * 1024 * 1024;

/** One 200 MB rollout line (steps of escaped text) and a short line after it. */
function writeLongLineFile(path: string): void {
  const step = 'Step: we have 12 \\u00d7 7 = 84, so the total so far is 84.\\n\\n';
  const head = '{"prompt":"Runaway response","response":"';
  const tail = '","score":1}\n';
  const repeat = Math.floor((LINE_BYTES - head.length - tail.length) / step.length);
  writeFileSync(path, head + step.repeat(repeat) + tail + '{"prompt":"p","response":"short","score":0}\n');
}

/** Reads the file in 1 MB pieces and nothing else: the baseline of the reading benchmarks. */
export async function bareRead(path: string): Promise<number> {
  const handle = await open(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) return total;
      total += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** Reads the file as lines; returns the number of lines and the length of the longest. */
export async function readLines(path: string): Promise<{ lines: number; longest: number }> {
  let lines = 0;
  let longest = 0;
  for await (const batch of readFileLines(path)) {
    for (const line of batch) {
      lines++;
      longest = Math.max(longest, line.raw.length);
    }
  }
  return { lines, longest };
}

async function seconds(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/** Peak RSS of a child that runs one task of this module (see main.ts's `child` mode). */
function childPeakRss(task: string, path: string): number {
  const out = spawnSync(process.execPath, [process.argv[1]!, 'child', task, path], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(out.stderr);
  return Number(out.stdout.trim().split('\n').pop());
}

/** The child's side: run one task, print the peak RSS in bytes. */
export async function child(task: string, path: string): Promise<void> {
  if (task === 'lines') await readLines(path);
  else if (task === 'worker-read') await analyseFromDisk(path);
  else await bareRead(path);
  console.log(process.resourceUsage().maxRSS * 1024);
}

export async function run(): Promise<BenchResult[]> {
  mkdirSync(DIR, { recursive: true });
  const path = join(DIR, 'line-200mb.jsonl');
  if (!existsSync(path)) writeLongLineFile(path);
  const size = statSync(path).size;
  let bare = Infinity;
  let lines = Infinity;
  for (let round = 0; round < 3; round++) {
    bare = Math.min(bare, await seconds(() => bareRead(path)));
    lines = Math.min(lines, await seconds(async () => {
      const read = await readLines(path);
      if (read.lines !== 2 || read.longest < LINE_BYTES * 0.99) throw new Error(`read ${read.lines} lines, longest ${read.longest}`);
    }));
  }
  const rssLines = childPeakRss('lines', path);
  const rssBare = childPeakRss('bare', path);
  const baseline = { name: 'bare 1 MB reads of the same file', value: bare };
  return [
    { name: `baseline: bare read (${(size / 1048576).toFixed(0)} MB, one 200 MB line)`, value: bare, unit: 's' },
    { name: 'readFileLines on the 200 MB line', value: lines, unit: 's', baseline, ratio: lines / bare, note: 'lower is better; was 43 s (quadratic re-copying)' },
    {
      name: 'readFileLines peak RSS / line size',
      value: rssLines / LINE_BYTES,
      unit: '×',
      note: `peak ${(rssLines / 1048576).toFixed(0)} MB, bare read ${(rssBare / 1048576).toFixed(0)} MB; was 1,039 MB; target < 3×`,
    },
  ];
}
