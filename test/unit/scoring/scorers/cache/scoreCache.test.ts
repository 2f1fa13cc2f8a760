import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StepScoring } from '../../../../../src/core/model';
import { createScoreCache, SCORE_CACHE_FILE, scoreCacheKeyHash, type ScoreCacheKey } from '../../../../../src/scoring/scorers/cache/scoreCache';
import { defaultCacheDir } from '../../../../../src/scoring/scorers/cache/identity';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'prof-lens-cache-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

function key(n: number, model = 'http:http://127.0.0.1:8000#prm'): ScoreCacheKey {
  return { model, profile: 'qwen-prm', prompt: `Problem ${n}: what is ${n} squared?`, steps: [`${n} times ${n}`, `is ${n * n}`] };
}
function scoring(n: number): StepScoring {
  return { kind: 'scored', scores: [n / 100, null], notes: [null, 'unscored (context)'], scorer: 'http:qwen-prm@prm' };
}

describe('score cache', () => {
  it('serves an entry after a restart', async () => {
    const dir = await tempDir();
    const first = createScoreCache({ dir });
    first.set(key(1), scoring(1));
    expect(await first.get(key(1))).toEqual(scoring(1));
    await first.flush();
    const reopened = createScoreCache({ dir });
    expect(await reopened.get(key(1))).toEqual(scoring(1));
    expect(await reopened.get(key(2))).toBeUndefined();
  });

  it('misses when any part of the key changes', async () => {
    const dir = await tempDir();
    const cache = createScoreCache({ dir });
    cache.set(key(1), scoring(1));
    await cache.flush();
    const reopened = createScoreCache({ dir });
    expect(await reopened.get({ ...key(1), model: 'http:http://127.0.0.1:8000#other-prm' })).toBeUndefined();
    expect(await reopened.get({ ...key(1), profile: 'skywork-prm' })).toBeUndefined();
    expect(await reopened.get({ ...key(1), steps: ['1 times 1', 'is 1', ''] })).toBeUndefined();
    // Moving text between steps must not collide with the original split.
    expect(await reopened.get({ ...key(1), steps: ['1 times 1is 1'] })).toBeUndefined();
  });

  it('evicts the oldest entries when over its size cap, and keeps the newest', async () => {
    const dir = await tempDir();
    const cache = createScoreCache({ dir, maxBytes: 4000 });
    for (let n = 0; n < 40; n++) {
      cache.set(key(n), scoring(n));
      await cache.flush();
    }
    expect((await stat(cache.file)).size).toBeLessThanOrEqual(4000);
    const reopened = createScoreCache({ dir, maxBytes: 4000 });
    expect(await reopened.get(key(0))).toBeUndefined();
    expect(await reopened.get(key(39))).toEqual(scoring(39));
    expect(await reopened.get(key(38))).toEqual(scoring(38));
  });

  it('skips corrupt lines and a torn last line without losing good entries', async () => {
    const dir = await tempDir();
    const cache = createScoreCache({ dir });
    cache.set(key(1), scoring(1));
    cache.set(key(2), scoring(2));
    await cache.flush();
    const file = join(dir, SCORE_CACHE_FILE);
    const good = await readFile(file, 'utf8');
    const wrongShape = JSON.stringify({ k: scoreCacheKeyHash(key(3)), v: { kind: 'scored', scores: 'high' } });
    await writeFile(file, `not json at all\n${wrongShape}\n\u0000\u0001garbage\n${good}{"k":"${scoreCacheKeyHash(key(4))}","v":{"kin`);
    const reopened = createScoreCache({ dir });
    expect(await reopened.get(key(1))).toEqual(scoring(1));
    expect(await reopened.get(key(2))).toEqual(scoring(2));
    expect(await reopened.get(key(3))).toBeUndefined();
    expect(reopened.skippedLines).toBe(4);
    // A write after a torn line starts on a line of its own.
    reopened.set(key(5), scoring(5));
    await reopened.flush();
    expect(await createScoreCache({ dir }).get(key(5))).toEqual(scoring(5));
  });

  it('reads entries whose lines end as VS Code ends them (CRLF, a lone CR) and after a BOM, as the rollout files are read', async () => {
    const dir = await tempDir();
    const cache = createScoreCache({ dir });
    for (const n of [1, 2, 3]) cache.set(key(n), scoring(n));
    await cache.flush();
    const file = join(dir, SCORE_CACHE_FILE);
    const [one, two, three] = (await readFile(file, 'utf8')).split('\n');
    // Edited on another system: a BOM, a CRLF and a lone CR (two entries were one unreadable line before).
    await writeFile(file, `\ufeff${one}\r\n${two}\r${three}\r\n`);
    const reopened = createScoreCache({ dir });
    for (const n of [1, 2, 3]) expect(await reopened.get(key(n))).toEqual(scoring(n));
    expect(reopened.skippedLines).toBe(0);
  });

  it('lets the newest value of a key win across restarts', async () => {
    const dir = await tempDir();
    const cache = createScoreCache({ dir });
    cache.set(key(1), scoring(1));
    await cache.flush();
    const later = createScoreCache({ dir });
    later.set(key(1), scoring(7));
    await later.flush();
    expect(await createScoreCache({ dir }).get(key(1))).toEqual(scoring(7));
  });

  it('works when the folder does not exist yet, and does not create it for reads', async () => {
    const dir = join(await tempDir(), 'nested', 'cache');
    const cache = createScoreCache({ dir });
    expect(await cache.get(key(1))).toBeUndefined();
    await cache.flush();
    await expect(stat(dir)).rejects.toThrow();
    cache.set(key(1), scoring(1));
    await cache.flush();
    await appendFile(join(dir, SCORE_CACHE_FILE), '');
    expect(await createScoreCache({ dir }).get(key(1))).toEqual(scoring(1));
  });
});

describe('cache location', () => {
  it('finds an XDG-style default folder, overridable', () => {
    expect(defaultCacheDir({ PROF_LENS_CACHE_DIR: '/x/cache', XDG_CACHE_HOME: '/xdg' })).toBe('/x/cache');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/xdg' })).toBe(join('/xdg', 'prof-lens'));
    expect(defaultCacheDir({ HOME: '/home/u' })).toBe(join('/home/u', '.cache', 'prof-lens'));
  });
});
