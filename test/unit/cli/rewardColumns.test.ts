/**
 * Reward columns in Compare and the Rollout Explorer, from a file whose every row names another
 * reward. Before: 40,000 such rows took Compare 45 s and 12.6 GB (one column of the whole table's
 * length per distinct name); `report` on the same file took 1.4 s and 171 MB.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { analysePath } from '../../../src/scoring/analysis/analysePath';
import { buildExplorerTable, MAX_REWARD_COLUMNS } from '../../../src/core/explore/explorerTable';
import { ExplorerEngine } from '../../../src/core/explore/explorerEngine';

const dir = mkdtempSync(join(tmpdir(), 'prof-lens-reward-columns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 40_000;

/** `rows` rollouts in groups of 4, the i-th naming its own reward column `reward_i`. */
function write(name: string, rows: number): string {
  const path = join(dir, name);
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) lines.push(JSON.stringify({ prompt: `q${i >> 2}`, response: `a ${i}.\n\nb.`, correct: i % 2 === 0, [`reward_${i}`]: i % 3, step_scores: [0.9, 0.8] }));
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Runs `work` and samples the process's resident memory meanwhile (workers included: they are threads of it). */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ value: T; megabytes: number; seconds: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, megabytes: (peak - base) / 1048576, seconds: (performance.now() - started) / 1000 };
  } finally {
    clearInterval(timer);
  }
}

describe('a reward column per row', () => {
  it('the Explorer keeps the first columns and says how many names it left out; memory stays linear', async () => {
    const path = write('explorer.jsonl', ROWS);
    const { analysis } = await analysePath(path, { scorer: 'file' });
    const run = await peakGrowth(async () => new ExplorerEngine(buildExplorerTable(analysis), null));
    const engine = run.value;
    expect(run.seconds).toBeLessThan(5);
    // 32 columns of 40,000 numbers are 10 MB; 40,000 of them were 12.6 GB.
    expect(run.megabytes).toBeLessThan(300);
    expect(engine.rewardColumns).toHaveLength(MAX_REWARD_COLUMNS);
    expect(engine.rewardColumns.slice(0, 2)).toEqual(['correct', 'reward_0']);
    expect(engine.rewardColumnsNote).toBe(`${MAX_REWARD_COLUMNS} reward columns shown, the first named; 39,969 more names left out (at most ${MAX_REWARD_COLUMNS} are kept)`);
    // The rest of the work is done: every row is there, with its kept rewards.
    const page = (await engine.query({ version: 1, filter: {}, sort: null })).rowsPage(0, 3);
    expect(page.total).toBe(ROWS);
    expect(page.rows[1]!.rewards).toMatchObject({ correct: 0, reward_1: 1 });
  });

  it('compare over two such files finishes in seconds and compares every prompt', async () => {
    const a = write('a.jsonl', ROWS);
    const b = write('b.jsonl', ROWS);
    let out = '';
    const run = await peakGrowth(() => runCli(['compare', a, b, '--json', '--no-cache'], { stdout: (t) => (out += t), stderr: () => undefined, isStderrTty: false, cwd: dir }));
    expect(run.value).toBe(0);
    expect(run.seconds).toBeLessThan(30);
    expect(run.megabytes).toBeLessThan(1500);
    const json = JSON.parse(out);
    expect(json.prompts ?? json.comparison?.prompts).toHaveLength(ROWS / 4);
  });
});
