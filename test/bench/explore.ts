/**
 * The Rollout Explorer on a generated 1,000,000-rollout dump (written to a temporary folder and
 * removed afterwards), analysed as the editor's worker analyses a file on disk (texts not kept).
 * Filters and sorts are timed on a fresh engine each time (no cached result), against a native
 * typed-array sort of one column of the same million numbers. Search is timed against RE2 alone
 * running over the same response texts held in memory, in the same run, alternating, median of
 * three; and once more reading the texts back from disk, as the worker does for a large file.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RE2JS } from 're2js';
import { analysePath } from '../../src/scoring/analysis/analysePath';
import { buildExplorerTable, type ExplorerTable } from '../../src/core/explore/explorerTable';
import { ExplorerEngine } from '../../src/core/explore/explorerEngine';
import { memoryTexts, type RolloutText, type RolloutTextSource } from '../../src/core/explore/textSearch';
import type { ExplorerQuery } from '../../src/core/explore/explorerQuery';
import { diskTexts } from '../../src/scoring/explore/diskTexts';
import { median, writeExploreDump } from './exploreData';
import type { BenchResult } from './types';

const ROLLOUTS = 1_000_000;
const RUNS = 3;

const QUERIES: { name: string; query: ExplorerQuery }[] = [
  { name: 'filter: suspected FP', query: { version: 1, filter: { suspectedFalsePositive: true }, sort: null } },
  { name: 'filter: correct, not kept, H ≥ 6, mean ≤ 0.5', query: { version: 1, filter: { outcomes: ['correct'], kept: false, ranges: [{ column: 'steps', min: 6 }, { column: 'meanScore', max: 0.5 }] }, sort: null } },
  { name: 'sort: all by mean step score ↓', query: { version: 1, filter: {}, sort: { column: 'meanScore', descending: true } } },
  { name: 'sort: all by extracted answer ↑', query: { version: 1, filter: {}, sort: { column: 'extracted', descending: false } } },
  { name: 'filter + sort: tied or dropped for penalty, by consistency ↑', query: { version: 1, filter: { reasons: ['dropped-tie', 'dropped-step-penalty'] }, sort: { column: 'consistency', descending: false } } },
];

const PATTERNS = ['sym.?py', '\\d+ \\* 4\\d = \\d+'];

async function timeMs(work: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** RE2 alone over the texts: does each match (as the search asks of every text)? */
function re2Alone(pattern: string, responses: readonly string[]): number {
  const compiled = RE2JS.compile(pattern);
  let hits = 0;
  for (const text of responses) if (compiled.matcher(text).find()) hits++;
  return hits;
}

async function engineSearch(table: ExplorerTable, texts: RolloutTextSource, pattern: string): Promise<number> {
  const engine = new ExplorerEngine(table, texts);
  return (await engine.query({ version: 1, filter: { search: { text: pattern, mode: 'regex', fields: ['response'] } }, sort: null })).total;
}

async function queryResults(table: ExplorerTable, analysisMs: number): Promise<BenchResult[]> {
  const column = Float64Array.from(table.meanScore);
  const baseMs = median(await Promise.all(Array.from({ length: RUNS }, () => timeMs(() => Float64Array.from(column).sort()))));
  const baseline = { name: 'Float64Array.sort of one column (1M numbers)', value: baseMs };
  const results: BenchResult[] = [{ name: 'baseline: native sort of 1M numbers', value: baseMs, unit: 'ms' }];
  for (const { name, query } of QUERIES) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS; i++) times.push(await timeMs(async () => (total = (await new ExplorerEngine(table, null).query(query)).total)));
    const ms = median(times);
    results.push({ name, value: ms, unit: 'ms', baseline, ratio: ms / baseMs, note: `${total.toLocaleString('en-US')} rows; target ≤ 200 ms; ${(analysisMs / ms).toFixed(0)}× faster than the analysis` });
  }
  const engine = new ExplorerEngine(table, null);
  const sorted = await engine.query(QUERIES[2]!.query);
  const pageMs = await timeMs(() => sorted.rowsPage(500_000, 100));
  results.push({ name: 'page of 100 rows at offset 500,000 (cached result)', value: pageMs, unit: 'ms' });
  return results;
}

async function searchResults(table: ExplorerTable, disk: RolloutTextSource): Promise<BenchResult[]> {
  const texts: RolloutText[] = [];
  for await (const chunk of disk.chunks()) for (const t of chunk.texts) texts.push(t);
  const responses = texts.map((t) => t.response);
  const chars = responses.reduce((n, r) => n + r.length, 0);
  const memory = memoryTexts(texts);
  const results: BenchResult[] = [];
  for (const pattern of PATTERNS) {
    // Warm both up once, then alternate.
    re2Alone(pattern, responses.slice(0, 20_000));
    const base: number[] = [];
    const ours: number[] = [];
    let hits = 0;
    for (let i = 0; i < RUNS; i++) {
      base.push(await timeMs(() => re2Alone(pattern, responses)));
      ours.push(await timeMs(async () => (hits = await engineSearch(table, memory, pattern))));
    }
    const throughput = (ms: number): number => chars / 1e6 / (ms / 1000);
    const baseline = { name: `RE2 alone, /${pattern}/`, value: throughput(median(base)) };
    results.push({ name: `baseline: RE2 alone /${pattern}/ over ${(chars / 1e6).toFixed(0)} M chars`, value: baseline.value, unit: 'M chars/s' });
    results.push({ name: `explorer search /${pattern}/, texts in memory`, value: throughput(median(ours)), unit: 'M chars/s', baseline, ratio: throughput(median(ours)) / baseline.value, note: `${hits.toLocaleString('en-US')} hits; target ≥ 0.5×` });
    const diskMs = await timeMs(() => engineSearch(table, disk, pattern));
    results.push({ name: `explorer search /${pattern}/, texts read back from disk`, value: throughput(diskMs), unit: 'M chars/s', baseline, ratio: throughput(diskMs) / baseline.value, note: 'one run: reads and parses every line again' });
  }
  return results;
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'prof-lens-explore-bench-'));
  try {
    const path = join(dir, 'rollouts-1m.jsonl');
    writeExploreDump(path, { rollouts: ROLLOUTS, seed: 7 });
    const size = statSync(path).size;
    let analysis!: Awaited<ReturnType<typeof analysePath>>;
    const analysisMs = await timeMs(async () => (analysis = await analysePath(path, { keepText: false, rawOffsets: false, extractAnswers: true })));
    let table!: ExplorerTable;
    const tableMs = await timeMs(() => (table = buildExplorerTable(analysis.analysis)));
    const disk = diskTexts(path, analysis.lines!, table, {});
    return [
      { name: `analysis of ${ROLLOUTS.toLocaleString('en-US')} rollouts (${(size / 1048576).toFixed(0)} MB, from disk)`, value: analysisMs / 1000, unit: 's' },
      { name: 'explorer table built from the analysis', value: tableMs, unit: 'ms', note: `${(tableMs / analysisMs * 100).toFixed(1)}% of the analysis` },
      ...(await queryResults(table, analysisMs)),
      ...(await searchResults(table, disk)),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
