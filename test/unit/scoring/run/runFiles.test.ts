import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledWorkerPath } from '../../../../src/scoring/cas/casClient';
import { summariseFiles, summariseRuns } from '../../../../src/scoring/run/runFiles';
import { listRunFiles } from '../../../../src/scoring/run/runLayoutFiles';
import { createSummaryCache, summaryIdentity } from '../../../../src/scoring/run/summaryCache';
import { SummaryPool } from '../../../../src/scoring/run/summaryPool';
import { countingSummariser } from './countingSummariser';

const SMALL = join(__dirname, '../../../fixtures/run/small');


function runCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'prof-lens-run-'));
  for (const name of ['10.jsonl', '20.jsonl']) copyFileSync(join(SMALL, name), join(dir, name));
  return dir;
}

describe('the files of a run', () => {
  it('are the folder’s .jsonl and .json files in step order, or the one file given', async () => {
    const dir = runCopy();
    writeFileSync(join(dir, 'notes.txt'), 'not a rollout file');
    writeFileSync(join(dir, '5.json'), '[]');
    // A run's config or metrics file is not a step, and not a broken one either.
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ lr: 1e-6, rollout: { n: 8, temperature: 1 }, total_steps: 200 }, null, 2));
    expect((await listRunFiles(dir)).map((f) => f.slice(dir.length + 1))).toEqual(['5.json', '10.jsonl', '20.jsonl']);
    expect(await listRunFiles(join(dir, '20.jsonl'))).toEqual([join(dir, '20.jsonl')]);
    await expect(listRunFiles(join(dir, 'missing'))).rejects.toThrow(/missing: no such folder or file/);
  });
});

describe('summarising with the cache', () => {
  it('reads a file once; a re-run reads only the files that are new or changed', async () => {
    const dir = runCopy();
    const cache = createSummaryCache(mkdtempSync(join(tmpdir(), 'prof-lens-cache-')), summaryIdentity({ settings: {}, scorer: 'auto', code: 'test' }));
    const first = countingSummariser();
    const files = await listRunFiles(dir);
    await summariseFiles(files, { summarise: first.summarise, parallelism: 2, cache });
    expect(first.read.length).toBe(2);

    const again = countingSummariser();
    const progress: number[] = [];
    await summariseFiles(files, { summarise: again.summarise, parallelism: 2, cache, onProgress: (p) => progress.push(p.cached) });
    expect(again.read).toEqual([]);
    expect(progress.at(-1)).toBe(2);

    // A new step file, and a changed one (new modification time).
    copyFileSync(join(SMALL, '20.jsonl'), join(dir, '30.jsonl'));
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, '20.jsonl'), later, later);
    const third = countingSummariser();
    const result = await summariseFiles(await listRunFiles(dir), { summarise: third.summarise, parallelism: 2, cache });
    expect(third.read.sort()).toEqual(['20.jsonl', '30.jsonl']);
    expect(result.summaries.map((s) => s.parts[0]?.step)).toEqual([10, 20, 30]);
  });

  it('is not used when a setting or the scorer differs', async () => {
    const dir = runCopy();
    const cacheDir = mkdtempSync(join(tmpdir(), 'prof-lens-cache-'));
    const files = await listRunFiles(dir);
    const m4 = createSummaryCache(cacheDir, summaryIdentity({ settings: { m: 4 }, scorer: 'auto', code: 'test' }));
    await summariseFiles(files, { summarise: countingSummariser().summarise, parallelism: 1, cache: m4 });
    for (const identity of [{ settings: { m: 2 }, scorer: 'auto' }, { settings: { m: 4 }, scorer: 'checker' }]) {
      const other = countingSummariser();
      await summariseFiles(files, { summarise: other.summarise, parallelism: 1, cache: createSummaryCache(cacheDir, summaryIdentity({ ...identity, code: 'test' })) });
      expect(other.read.length, JSON.stringify(identity)).toBe(2);
    }
  });

  it('an entry is used only for the exact size and mtime it was made from', async () => {
    const dir = runCopy();
    const file = join(dir, '20.jsonl');
    const cache = createSummaryCache(mkdtempSync(join(tmpdir(), 'prof-lens-cache-')), 'id');
    const [summary] = (await summariseFiles([file], { summarise: countingSummariser().summarise, parallelism: 1, cache })).summaries;
    const { size, mtimeMs } = statSync(file);
    expect(await cache.get(file, { size, mtimeMs })).toEqual(summary);
    expect(await cache.get(file, { size: size + 1, mtimeMs })).toBeNull();
    expect(await cache.get(file, { size, mtimeMs: mtimeMs + 1 })).toBeNull();
    expect(await createSummaryCache(mkdtempSync(join(tmpdir(), 'prof-lens-cache-')), 'id').get(file, { size, mtimeMs })).toBeNull();
  });
});

describe('problems in a run', () => {
  it('an empty, a garbage and a vanished step file are each named, and the other steps are summarised', async () => {
    const dir = runCopy();
    writeFileSync(join(dir, '30.jsonl'), '');
    writeFileSync(join(dir, '40.jsonl'), 'this is not JSON\nnor is this\n');
    symlinkSync(join(dir, 'gone.jsonl'), join(dir, '50.jsonl'));
    const { runs } = await summariseRuns([dir], { summarise: countingSummariser().summarise, parallelism: 2, cache: null });
    expect(runs[0]!.steps.map((s) => s.step)).toEqual([10, 20]);
    expect(runs[0]!.problems).toEqual([
      { file: join(dir, '30.jsonl'), message: 'the file is empty' },
      { file: join(dir, '40.jsonl'), message: 'no readable record (2 unreadable lines)' },
      { file: join(dir, '40.jsonl'), message: expect.stringMatching(/^line 1: expected one JSON object per line/) },
      { file: join(dir, '40.jsonl'), message: expect.stringMatching(/^line 2: /) },
      { file: join(dir, '50.jsonl'), message: 'cannot be read: ENOENT' },
    ]);
  });

  it('a folder without rollout files says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prof-lens-run-'));
    mkdirSync(join(dir, 'sub'));
    const { runs } = await summariseRuns([dir], { summarise: countingSummariser().summarise, parallelism: 1, cache: null });
    expect(runs[0]).toMatchObject({ files: 0, steps: [], problems: [{ file: dir }] });
    expect(runs[0]!.problems[0]!.message).toMatch(/^holds no step files: looked for \{step\}\.jsonl .*completions_\*\.parquet \(TRL\).*train_data_step\*\.jsonl \(NeMo-RL\).*step_\*\/train\/all\/traces\.jsonl \(prime-rl\)/);
  });
});

describe('the summary workers (dist/runWorker.js)', () => {
  let pool: SummaryPool;
  beforeAll(() => {
    pool = new SummaryPool(bundledWorkerPath('runWorker.js'), 2);
  });
  afterAll(async () => pool.dispose());

  it('summarise files in worker threads exactly as in-process', async () => {
    const files = await listRunFiles(SMALL);
    const inWorkers = await summariseFiles(files, { summarise: (file, options) => pool.summarise({ file, settings: {}, scorer: 'auto', model: null }, options), parallelism: 2, cache: null });
    const inProcess = await summariseFiles(files, { summarise: countingSummariser().summarise, parallelism: 1, cache: null });
    expect(inWorkers.summaries).toEqual(inProcess.summaries);
    expect(inWorkers.scorerLabel).toBe('file, else checker');
  });

  it('a file that cannot be opened fails its job with the reason, and the pool goes on', async () => {
    await expect(pool.summarise({ file: join(SMALL, 'missing.jsonl'), settings: {}, scorer: 'auto', model: null })).rejects.toThrow(/ENOENT/);
    const outcome = await pool.summarise({ file: join(SMALL, '10.jsonl'), settings: {}, scorer: 'checker', model: null });
    expect(outcome.scorerLabel).toBe('checker');
    expect(outcome.figures.parts[0]?.scorers).toEqual({ checker: 12 });
  });

  it('a cancelled job ends as cancelled, and the worker takes the next job', async () => {
    // Big enough that the cancel arrives while the worker is still reading.
    const big = join(mkdtempSync(join(tmpdir(), 'prof-lens-run-')), '1.jsonl');
    writeFileSync(big, readFileSync(join(SMALL, '10.jsonl'), 'utf8').repeat(3000));
    const controller = new AbortController();
    const job = pool.summarise({ file: big, settings: {}, scorer: 'auto', model: null }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(job).rejects.toThrow(/aborted|cancelled/);
    const next = await pool.summarise({ file: join(SMALL, '20.jsonl'), settings: {}, scorer: 'auto', model: null });
    expect(next.figures.parts[0]?.step).toBe(20);
  });
});
