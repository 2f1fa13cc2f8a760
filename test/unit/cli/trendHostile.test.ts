/**
 * `trend` over folders and caches it did not make. Before: a FIFO named like a step file (or a
 * symlink to one) hung the command for ever, a symlink to `/dev/zero` was read twice to ~4 GB,
 * and one damaged cache entry (`parts: [null]`) failed every later run without naming the file.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { createScoreCache, SCORE_CACHE_FILE } from '../../../src/scoring/scorers/cache/scoreCache';
import { cachedScorer } from '../../../src/scoring/scorers/cache/cachedScorer';
import type { Scorer } from '../../../src/scoring/scorers/scorer';

const ROOT = join(__dirname, '../../..');
const SMALL = join(ROOT, 'test/fixtures/run/small');

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string; seconds: number }> {
  let out = '';
  let err = '';
  const started = performance.now();
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: ROOT });
  return { code, out, err, seconds: (performance.now() - started) / 1000 };
}

describe('a run folder holding what is not a step file', () => {
  it('FIFOs, a symlink to one, a symlink to /dev/zero and a symlink loop are skipped and named; the steps are read', async () => {
    const run = mkdtempSync(join(tmpdir(), 'prof-lens-trend-special-'));
    copyFileSync(join(SMALL, '10.jsonl'), join(run, '10.jsonl'));
    execFileSync('mkfifo', [join(run, 'fifo.jsonl')]);
    symlinkSync('fifo.jsonl', join(run, '20.jsonl'));
    symlinkSync('/dev/zero', join(run, '30.jsonl'));
    symlinkSync('loop.jsonl', join(run, 'loop.jsonl'));
    const result = await cli(['trend', run, '--json', '--no-cache']);
    expect(result.seconds).toBeLessThan(30);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out).runs[0].steps.map((s: { step: number }) => s.step)).toEqual([10]);
    expect(result.err).toMatch(/20\.jsonl: skipped: a symbolic link to a named pipe \(FIFO\), not a regular file/);
    expect(result.err).toMatch(/30\.jsonl: skipped: a symbolic link to a character device, not a regular file/);
    expect(result.err).toMatch(/fifo\.jsonl: skipped: a named pipe \(FIFO\), not a regular file/);
    expect(result.err).toMatch(/loop\.jsonl: skipped: a loop of symbolic links/);
  });

  it('a run given as a device is refused at once', async () => {
    const result = await cli(['trend', '/dev/zero']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/\/dev\/zero: expected a folder of rollout files or one rollout file, not a character device/);
  });
});

describe('caches are untrusted input', () => {
  it('a damaged trend-cache entry is ignored and named once; the run is summarised as before', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'prof-lens-trend-cache-'));
    const first = await cli(['trend', SMALL, '--json', '--cache-dir', cacheDir]);
    expect(first.code).toBe(0);
    const entries = readdirSync(join(cacheDir, 'trend')).filter((f) => f.endsWith('.json'));
    expect(entries.length).toBeGreaterThan(0);
    const damage: ((entry: { summary: Record<string, unknown> }) => void)[] = [
      (e) => (e.summary.parts = [null]),
      (e) => (e.summary.unstepped = 'many'),
      (e) => (e.summary.problems = [{}]),
    ];
    entries.forEach((name, i) => {
      const path = join(cacheDir, 'trend', name);
      const entry = JSON.parse(readFileSync(path, 'utf8')) as { summary: Record<string, unknown> };
      damage[i % damage.length]!(entry);
      writeFileSync(path, JSON.stringify(entry));
    });
    const second = await cli(['trend', SMALL, '--json', '--cache-dir', cacheDir]);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.out)).toEqual(JSON.parse(first.out));
    for (const name of entries) expect(second.err.split(name).length - 1).toBe(1);
    expect(second.err).toMatch(/the cache entry .* \(for .*\.jsonl\) is damaged: ignored, the file was summarised again/);
    // Rewritten: the next run reads it without a word.
    expect((await cli(['trend', SMALL, '--json', '--cache-dir', cacheDir])).err).toBe('');
  });

  it('a score-cache entry with scores outside [0, 1] or a malformed note list is ignored, and said once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prof-lens-score-cache-'));
    const good = { kind: 'scored', scores: [0.5], scorer: 's' };
    const hash = (n: number): string => n.toString(16).padStart(64, '0');
    writeFileSync(join(dir, SCORE_CACHE_FILE), [
      { k: hash(1), t: 1, v: { ...good, scores: [1e308] } },
      { k: hash(2), t: 1, v: { ...good, notDecided: 5 } },
      { k: hash(3), t: 1, v: { ...good, notDecided: [{ step: 'x' }] } },
      { k: hash(4), t: 1, v: good },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const inner: Scorer = { info: { kind: 'http', label: 'http' }, score: (items) => Promise.resolve(items.map(() => ({ kind: 'scored', scores: [0.25], scorer: 'http' }))), dispose: () => Promise.resolve() };
    const scorer = cachedScorer(inner, createScoreCache({ dir }), 'model');
    const [result] = await scorer.score([{ id: 0, prompt: 'p', steps: ['s'] }]);
    expect(result).toMatchObject({ kind: 'scored', scores: [0.25] });
    expect(scorer.takeCacheNotice()).toMatch(/^3 damaged entries of .*step-scores\.v1\.jsonl ignored \(scored again\)$/);
    expect(scorer.takeCacheNotice()).toBeNull();
  });
});
