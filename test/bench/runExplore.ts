/**
 * The Rollout Explorer over a whole run: a generated verl-style run of RUN_EXPLORE_FILES step files
 * (default 300) of about RUN_EXPLORE_ROLLOUTS rollouts each (default 1,000), read into one table
 * as the run explorer worker reads it (`RunRequests`, here on the bench's own thread). Measured:
 * time to the first rows, time to every row, two cross-step queries, the process's peak memory,
 * and the ratio to a bare read of the same files (readline + JSON.parse) in the same run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileLines } from '../../src/scoring/analysis/fileLines';
import { QUERY_VERSION } from '../../src/core/explore/explorerQuery';
import { RunRequests } from '../../src/scoring/explore/runRequests';
import { writeDump } from './core';
import type { BenchResult } from './types';

const FILES = Number(process.env['RUN_EXPLORE_FILES'] ?? 300);
const ROLLOUTS = Number(process.env['RUN_EXPLORE_ROLLOUTS'] ?? 1000);

/** Step files from one generated template (its step field rewritten per file); returns the bytes of one. */
function writeRun(dir: string): { bytes: number; lines: number } {
  const template = join(dir, 'template.tmp');
  // writeDump stops at a byte size: about 2.3 kB a record.
  const lines = writeDump(template, ROLLOUTS * 2300);
  const text = readFileSync(template, 'utf8');
  rmSync(template);
  for (let i = 1; i <= FILES; i++) writeFileSync(join(dir, `${i}.jsonl`), text.replace(/"step":100/g, `"step":${i}`));
  return { bytes: text.length, lines };
}

async function bareRead(dir: string): Promise<number> {
  let records = 0;
  for (let i = 1; i <= FILES; i++) {
    for await (const batch of readFileLines(join(dir, `${i}.jsonl`))) for (const line of batch) if (JSON.parse(line.raw)) records++;
  }
  return records;
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'prof-run-explore-'));
  try {
    const { bytes, lines } = writeRun(dir);
    const t0 = performance.now();
    const records = await bareRead(dir);
    const bare = (performance.now() - t0) / 1000;
    const requests = new RunRequests();
    const start = performance.now();
    let first = Number.NaN;
    let firstRows = 0;
    const done = await requests.open('bench', { path: dir, split: 'train', settings: {}, scorer: 'auto' }, (p) => {
      if (Number.isNaN(first) && p.rows > 0) (first = (performance.now() - start) / 1000), (firstRows = p.rows);
    });
    const all = (performance.now() - start) / 1000;
    // Wall time, and this thread's CPU time (what the query costs whatever else the machine runs).
    const timed = async (filter: object): Promise<{ seconds: number; cpuMs: number; total: number }> => {
      const t = performance.now();
      const cpu = process.cpuUsage();
      const answer = await requests.answer('bench', { method: 'query', query: { version: QUERY_VERSION, filter, sort: { column: 'meanScore', descending: true } }, offset: 0, limit: 200 });
      const used = process.cpuUsage(cpu);
      return { seconds: (performance.now() - t) / 1000, cpuMs: (used.user + used.system) / 1000, total: answer.method === 'query' ? answer.page.total : -1 };
    };
    // Steps from two thirds of the run on (step 200 of 300), and its middle sixth.
    const late = Math.ceil((FILES * 2) / 3);
    const fp = await timed({ suspectedFalsePositive: true, ranges: [{ column: 'step', min: late }] });
    const correct = await timed({ outcomes: ['correct'], ranges: [{ column: 'step', min: Math.ceil(FILES / 3), max: Math.ceil(FILES / 2) }, { column: 'steps', min: 20 }] });
    const search = await timed({ search: { text: 'compute 70 +', mode: 'plain' }, ranges: [{ column: 'step', min: late }] });
    const rss = process.resourceUsage().maxRSS * 1024;
    const mb = (bytes * FILES) / 1e6;
    const size = `${FILES} files × ${lines} rollouts, ${mb.toFixed(0)} MB, ${done.rows.toLocaleString('en-US')} rows`;
    return [
      { name: 'bare read (readline + JSON.parse) of the run', value: bare, unit: 's', note: `${records.toLocaleString('en-US')} records` },
      { name: 'run table: first rows', value: first, unit: 's', note: `${firstRows.toLocaleString('en-US')} rows of the first file` },
      { name: 'run table: every row', value: all, unit: 's', baseline: { name: 'bare read', value: bare }, ratio: all / bare, note: size },
      { name: `query: suspected FP at steps ≥ ${late}, by mean score`, value: fp.seconds * 1000, unit: 'ms', note: `${fp.total.toLocaleString('en-US')} rows; CPU ${fp.cpuMs.toFixed(0)} ms` },
      { name: `query: correct, steps ${Math.ceil(FILES / 3)}-${Math.ceil(FILES / 2)}, H ≥ 20`, value: correct.seconds * 1000, unit: 'ms', note: `${correct.total.toLocaleString('en-US')} rows; CPU ${correct.cpuMs.toFixed(0)} ms` },
      { name: `query: plain search at steps ≥ ${late} (first search)`, value: search.seconds * 1000, unit: 'ms', note: `${search.total.toLocaleString('en-US')} rows; CPU ${search.cpuMs.toFixed(0)} ms${done.note ? `; ${done.note}` : ''}` },
      { name: 'peak memory of the process (RSS)', value: rss / 2 ** 20, unit: 'MiB', note: 'reading, table and kept texts, in the bench\'s own process' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
