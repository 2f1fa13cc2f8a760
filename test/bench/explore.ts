/**
 * The Rollout Explorer on a generated 1,000,000-rollout dump (written to a temporary folder and
 * removed afterwards), analysed as the editor's worker analyses a file on disk (texts not kept).
 * Filters and sorts are timed on a fresh engine each time (no cached result), against a native
 * typed-array sort of one column of the same million numbers. Search is timed against RE2 alone
 * running over the same response texts held in memory, in the same run, alternating, median of
 * three; once more reading the texts back from disk, as the worker does for a large file without
 * them; and over the texts kept by the first search from disk (that first search timed against
 * the disk path's, alternating). Peak memory of the worker's analysis and searches without and
 * with the texts kept is measured in child processes.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { RE2JS } from 're2js';
import { analysePath } from '../../src/scoring/analysis/analysePath';
import { buildExplorerTable, type ExplorerTable } from '../../src/core/explore/explorerTable';
import { ExplorerEngine } from '../../src/core/explore/explorerEngine';
import { numericColumnOf } from '../../src/core/explore/explorerFilter';
import { memoryTexts, type RolloutText, type RolloutTextSource } from '../../src/core/explore/textSearch';
import type { ExplorerQuery } from '../../src/core/explore/explorerQuery';
import { diskTexts } from '../../src/scoring/explore/diskTexts';
import { cachedTexts, TEXT_CACHE_BYTES, TextBudget, type CachedTextSource } from '../../src/scoring/explore/cachedTexts';
import { openExplorer } from '../../src/scoring/explore/explorerSession';
import { analyseWithModel } from '../../src/scoring/analysis/modelAnalysis';
import { ModelScorers } from '../../src/scoring/scorers/modelScorers';
import type { LineIndex } from '../../src/scoring/analysis/analysePath';
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
  const meanScore = numericColumnOf(table, 'meanScore');
  const column = Float64Array.from({ length: table.count }, (_, row) => meanScore(row));
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

/** One search of `pattern` over `texts` on a fresh engine, timed. */
async function timedSearch(table: ExplorerTable, texts: RolloutTextSource, pattern: string): Promise<{ ms: number; hits: number }> {
  let hits = 0;
  const ms = await timeMs(async () => (hits = await engineSearch(table, texts, pattern)));
  return { ms, hits };
}

async function searchResults(table: ExplorerTable, path: string, lines: LineIndex): Promise<BenchResult[]> {
  const disk = diskTexts(path, lines, table, {});
  const texts: RolloutText[] = [];
  for await (const chunk of disk.chunks()) for (const t of chunk.texts) texts.push(t);
  const responses = texts.map((t) => t.response);
  const chars = responses.reduce((n, r) => n + r.length, 0);
  const memory = memoryTexts(texts);
  const throughput = (ms: number): number => chars / 1e6 / (ms / 1000);
  const results: BenchResult[] = [];
  // The first search over the file: today's disk path, against one that keeps the texts as it reads (alternating, a fresh cache each time).
  const first: number[] = [];
  const filling: number[] = [];
  let cached!: CachedTextSource;
  for (let i = 0; i < RUNS; i++) {
    first.push((await timedSearch(table, disk, PATTERNS[0]!)).ms);
    cached?.release();
    cached = cachedTexts(diskTexts(path, lines, table, {}), table.count, new TextBudget(TEXT_CACHE_BYTES));
    filling.push((await timedSearch(table, cached, PATTERNS[0]!)).ms);
  }
  const diskBaseline = { name: 'the same first search reading from disk without keeping', value: throughput(median(first)) };
  results.push({ name: `first search /${PATTERNS[0]}/, texts read from disk and kept`, value: throughput(median(filling)), unit: 'M chars/s', baseline: diskBaseline, ratio: throughput(median(filling)) / diskBaseline.value, note: `disk alone ${diskBaseline.value.toFixed(1)} M chars/s; kept ${(cached.bytes / 1048576).toFixed(0)} MiB for ${cached.held.toLocaleString('en-US')} rollouts${cached.complete ? ' (all)' : ', budget ran out'}` });
  for (const pattern of PATTERNS) {
    // Warm up once, then alternate RE2 alone, the texts in memory and the texts kept from disk.
    re2Alone(pattern, responses.slice(0, 20_000));
    const base: number[] = [];
    const ours: number[] = [];
    const kept: number[] = [];
    let hits = 0;
    for (let i = 0; i < RUNS; i++) {
      base.push(await timeMs(() => re2Alone(pattern, responses)));
      const inMemory = await timedSearch(table, memory, pattern);
      ours.push(inMemory.ms);
      hits = inMemory.hits;
      const fromCache = await timedSearch(table, cached, pattern);
      if (fromCache.hits !== hits) throw new Error(`kept texts found ${fromCache.hits} hits, the texts in memory ${hits}`);
      kept.push(fromCache.ms);
    }
    const baseline = { name: `RE2 alone, /${pattern}/`, value: throughput(median(base)) };
    results.push({ name: `baseline: RE2 alone /${pattern}/ over ${(chars / 1e6).toFixed(0)} M chars`, value: baseline.value, unit: 'M chars/s' });
    results.push({ name: `explorer search /${pattern}/, texts in memory`, value: throughput(median(ours)), unit: 'M chars/s', baseline, ratio: throughput(median(ours)) / baseline.value, note: `${hits.toLocaleString('en-US')} hits; target ≥ 0.5×` });
    results.push({ name: `explorer search /${pattern}/, texts kept after the first search`, value: throughput(median(kept)), unit: 'M chars/s', baseline, ratio: throughput(median(kept)) / baseline.value, note: 'the file read from disk once; target ≥ 0.5×' });
    const diskMs = await timeMs(() => engineSearch(table, disk, pattern));
    results.push({ name: `explorer search /${pattern}/, texts read back from disk`, value: throughput(diskMs), unit: 'M chars/s', baseline, ratio: throughput(diskMs) / baseline.value, note: 'one run: reads and parses every line again (past the budget)' });
  }
  cached.release();
  return results;
}

/** What a child analysing `path` as the editor's worker does, then searching it twice, reports. */
interface ChildMemory {
  peak: number;
  afterAnalysis: number;
  afterSearches: number;
  keptBytes: number;
  held: number;
  rollouts: number;
}

/**
 * The child's side (main.ts's `child explore-kept|explore-disk <path>`): the worker's analysis of
 * the file, its explorer, and two searches (the first reads the file; with `explore-kept` it keeps
 * the texts, and the second runs over them). Prints the RSS figures as JSON.
 */
export async function child(task: string, path: string): Promise<void> {
  const { analysis, lines } = await analyseWithModel({ kind: 'path', path }, {
    fileName: path, settings: {}, scorer: 'auto', model: null, models: new ModelScorers(), signal: new AbortController().signal,
  });
  const afterAnalysis = process.memoryUsage().rss;
  const session = openExplorer({ analysis, disk: { path, lines: lines! } }, path, { textBudget: new TextBudget(task === 'explore-kept' ? TEXT_CACHE_BYTES : 0) });
  for (const pattern of PATTERNS) await session.engine.query({ version: 1, filter: { search: { text: pattern, mode: 'regex', fields: ['response'] } }, sort: null });
  const kept = session.keptTexts!;
  const report: ChildMemory = { peak: process.resourceUsage().maxRSS * 1024, afterAnalysis, afterSearches: process.memoryUsage().rss, keptBytes: kept.bytes, held: kept.held, rollouts: analysis.rollouts.length };
  console.log(JSON.stringify(report));
}

function childMemory(task: string, path: string): ChildMemory {
  const out = spawnSync(process.execPath, [process.argv[1]!, 'child', task, path], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout.trim().split('\n').pop()!) as ChildMemory;
}

/** Peak RSS of the worker's analysis and two searches, without and with the texts kept. */
function memoryResults(path: string, size: number): BenchResult[] {
  const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(0)} MB`;
  const disk = childMemory('explore-disk', path);
  const kept = childMemory('explore-kept', path);
  const baseline = { name: 'the same without keeping the texts', value: disk.peak / size };
  return [
    { name: 'peak RSS / file size: analysis, explorer, two searches from disk', value: disk.peak / size, unit: '×', note: `peak ${mb(disk.peak)}; ${mb(disk.afterAnalysis)} after the analysis, ${mb(disk.afterSearches)} after the searches` },
    { name: 'peak RSS / file size: the same, texts kept by the first search', value: kept.peak / size, unit: '×', baseline, ratio: kept.peak / disk.peak, note: `peak ${mb(kept.peak)}; ${mb(kept.afterAnalysis)} after the analysis, ${mb(kept.afterSearches)} after the searches; kept ${mb(kept.keptBytes)} (estimated) for ${kept.held.toLocaleString('en-US')} of ${kept.rollouts.toLocaleString('en-US')} rollouts` },
  ];
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
    return [
      { name: `analysis of ${ROLLOUTS.toLocaleString('en-US')} rollouts (${(size / 1048576).toFixed(0)} MB, from disk)`, value: analysisMs / 1000, unit: 's' },
      { name: 'explorer table built from the analysis', value: tableMs, unit: 'ms', note: `${(tableMs / analysisMs * 100).toFixed(1)}% of the analysis` },
      ...(await queryResults(table, analysisMs)),
      ...(await searchResults(table, path, analysis.lines!)),
      ...memoryResults(path, size),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
