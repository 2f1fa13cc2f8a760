import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunTracker } from '../../../../src/scoring/run/runTracker';
import { countingSummariser } from './countingSummariser';

const SMALL = join(__dirname, '../../../fixtures/run/small');


function runCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'prof-lens-tracker-'));
  for (const name of ['10.jsonl', '20.jsonl']) copyFileSync(join(SMALL, name), join(dir, name));
  return dir;
}

const settled = (tracker: RunTracker, test: () => boolean): Promise<void> => new Promise((resolve, reject) => {
  const timeout = setTimeout(() => reject(new Error('the run did not settle')), 10_000);
  const check = (): void => {
    if (!test()) return;
    clearTimeout(timeout);
    resolve();
  };
  tracker.onDidChange(check);
  check();
});

describe('a run kept up to date', () => {
  it('reads every file once, then only a file that appears; an untouched file is never read again', async () => {
    const dir = runCopy();
    const reader = countingSummariser();
    const tracker = new RunTracker(dir, { summarise: reader.summarise, parallelism: 2, cache: null, settleMs: 10 });
    await tracker.start();
    expect(reader.read.sort()).toEqual(['10.jsonl', '20.jsonl']);
    expect(tracker.summary().steps.map((s) => s.step)).toEqual([10, 20]);

    copyFileSync(join(SMALL, '20.jsonl'), join(dir, '30.jsonl'));
    tracker.changed(join(dir, '30.jsonl'));
    tracker.changed(join(dir, '10.jsonl'));
    await settled(tracker, () => tracker.summary().steps.length === 3 && tracker.progress === null);
    expect(reader.read.slice(2)).toEqual(['30.jsonl']);
    expect(tracker.summary().steps.map((s) => s.step)).toEqual([10, 20, 30]);
    tracker.dispose();
  });

  it('ignores files that are not the run\'s, forgets deleted ones, and a rescan finds what a watcher missed', async () => {
    const dir = runCopy();
    const reader = countingSummariser();
    const tracker = new RunTracker(dir, { summarise: reader.summarise, parallelism: 1, cache: null, settleMs: 10 });
    await tracker.start();
    expect(tracker.owns(join(dir, 'notes.txt'))).toBe(false);
    expect(tracker.owns(join(dir, 'sub', '40.jsonl'))).toBe(false);
    rmSync(join(dir, '10.jsonl'));
    tracker.deleted(join(dir, '10.jsonl'));
    expect(tracker.summary().steps.map((s) => s.step)).toEqual([20]);
    // Written with no event: the rescan compares sizes and times, reads only the new file.
    writeFileSync(join(dir, '50.jsonl'), readFileSync(join(SMALL, '20.jsonl')));
    await tracker.rescan();
    await settled(tracker, () => tracker.summary().steps.length === 2 && tracker.progress === null);
    expect(reader.read.slice(2)).toEqual(['50.jsonl']);
    tracker.dispose();
  });

  it('a one-file run watches only that file', async () => {
    const dir = runCopy();
    const tracker = new RunTracker(join(dir, '10.jsonl'), { summarise: countingSummariser().summarise, parallelism: 1, cache: null });
    await tracker.start();
    expect(tracker.folder).toBe(dir);
    expect(tracker.owns(join(dir, '10.jsonl'))).toBe(true);
    expect(tracker.owns(join(dir, '20.jsonl'))).toBe(false);
    expect(tracker.summary().steps.map((s) => s.step)).toEqual([10]);
    tracker.dispose();
  });

  it('says why a configured model did not score (the checker did), until a pass where it does', async () => {
    const dir = runCopy();
    const reader = countingSummariser();
    let failing = true;
    const summarise: typeof reader.summarise = async (file, options) => ({ ...(await reader.summarise(file, options)), ...(failing ? { modelError: 'The scoring server at http://gpu:8000 could not be used: ECONNREFUSED.' } : {}) });
    const tracker = new RunTracker(dir, { summarise, parallelism: 1, cache: null, settleMs: 10 });
    await tracker.start();
    expect(tracker.modelError).toMatch(/ECONNREFUSED/);
    failing = false;
    await tracker.restart({ summarise, parallelism: 1, cache: null });
    expect(tracker.modelError).toBeNull();
    tracker.dispose();
  });

  it('starts over under new settings', async () => {
    const dir = runCopy();
    const tracker = new RunTracker(dir, { summarise: countingSummariser().summarise, parallelism: 1, cache: null });
    await tracker.start();
    expect(tracker.summary().steps.map((s) => s.kept)).toEqual([10, 5]);
    await tracker.restart({ summarise: countingSummariser({ m: 2 }).summarise, parallelism: 1, cache: null });
    expect(tracker.summary().steps.map((s) => s.kept)).toEqual([6, 3]);
    tracker.dispose();
  });
});

describe('the Run Dashboard\'s run, opened on the folder above it', () => {
  const LOOP_RUNS = join(__dirname, '../../../fixtures/trainers/grpo-loop/runs');

  it('reads the run inside, says which, and watches that run\'s folder for new steps', async () => {
    const reader = countingSummariser();
    const tracker = new RunTracker(LOOP_RUNS, { summarise: reader.summarise, parallelism: 1, cache: null, settleMs: 10 });
    await tracker.start();
    const summary = tracker.summary();
    expect(summary.steps.map((s) => [s.step, s.rollouts])).toEqual([[100, 12], [200, 12], [300, 12]]);
    expect(summary.files).toBe(3);
    expect(summary.layout).toMatch(/^the run in qwen2\.5-math-1\.5b-r1zero\/; left out 5 files that hold no rollouts: config\.json, .*metrics\.jsonl$/);
    expect(summary.problems).toEqual([]);
    expect(reader.read).toEqual(['sample_rollouts.jsonl', 'sample_rollouts.jsonl', 'sample_rollouts.jsonl']);
    expect(tracker.folder).toBe(join(LOOP_RUNS, 'qwen2.5-math-1.5b-r1zero'));
    expect(tracker.owns(join(LOOP_RUNS, 'qwen2.5-math-1.5b-r1zero/grpo_step_000400/sample_rollouts.jsonl'))).toBe(true);
    tracker.dispose();
  });

  it('a folder with no run says why, as trend does, instead of an empty dashboard', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prof-lens-tracker-'));
    try {
      writeFileSync(join(dir, 'metrics.jsonl'), '{"step": 1, "loss": 0.5}\n');
      const tracker = new RunTracker(dir, { summarise: countingSummariser().summarise, parallelism: 1, cache: null });
      await tracker.start();
      expect(tracker.summary().problems.map((p) => p.message)).toEqual([expect.stringMatching(/^holds no step files: looked for .*; left out 1 file that holds no rollouts: metrics\.jsonl$/)]);
      tracker.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
