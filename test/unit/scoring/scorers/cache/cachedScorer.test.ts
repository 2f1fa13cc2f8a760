import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StepScoring } from '../../../../../src/core/model';
import { cachedScorer } from '../../../../../src/scoring/scorers/cache/cachedScorer';
import { createScoreCache } from '../../../../../src/scoring/scorers/cache/scoreCache';
import type { ScoreItem, Scorer } from '../../../../../src/scoring/scorers/scorer';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'prof-lens-cached-'));
  dirs.push(dir);
  return dir;
}

/** A scorer that records what it was asked and scores each step by its length. */
function countingScorer(unscoredPrompts: string[] = []): Scorer & { calls: ScoreItem[][] } {
  const calls: ScoreItem[][] = [];
  return {
    info: { kind: 'onnx', label: 'onnx qwen-prm (cpu)', profile: 'qwen-prm', model: 'm' },
    calls,
    async score(items) {
      calls.push([...items]);
      return items.map((item): StepScoring =>
        unscoredPrompts.includes(item.prompt)
          ? { kind: 'unscored', reason: 'worker crashed', scorer: 'onnx' }
          : { kind: 'scored', scores: item.steps.map((s) => s.length / 100), scorer: 'onnx' },
      );
    },
    async dispose() {},
  };
}

function item(id: number): ScoreItem {
  return { id, prompt: `p${id}`, steps: [`step one of ${id}`, 'two'] };
}

describe('cachedScorer', () => {
  it('sends only the misses to the inner scorer and keeps result order', async () => {
    const dir = await tempDir();
    const inner = countingScorer();
    const scorer = cachedScorer(inner, createScoreCache({ dir }), 'model-a');
    const first = await scorer.score([item(1), item(2)]);
    const progress: number[] = [];
    const second = await scorer.score([item(3), item(1), item(2), item(4)], { onProgress: (done) => progress.push(done) });
    expect(inner.calls.map((c) => c.map((i) => i.id))).toEqual([[1, 2], [3, 4]]);
    expect(second[1]).toEqual(first[0]);
    expect(second[2]).toEqual(first[1]);
    expect(second.map((r) => r.kind)).toEqual(['scored', 'scored', 'scored', 'scored']);
    expect(scorer.lastStats).toEqual({ hits: 2, misses: 2 });
    expect(scorer.stats).toEqual({ hits: 2, misses: 4 });
    expect(progress.at(-1)).toBe(4);
  });

  it('answers from disk after a restart, and asks again when the model identity changes', async () => {
    const dir = await tempDir();
    await cachedScorer(countingScorer(), createScoreCache({ dir }), 'model-a').score([item(1)]);
    const again = countingScorer();
    const restarted = cachedScorer(again, createScoreCache({ dir }), 'model-a');
    await restarted.score([item(1)]);
    expect(again.calls).toHaveLength(0);
    expect(restarted.lastStats).toEqual({ hits: 1, misses: 0 });
    const otherModel = countingScorer();
    await cachedScorer(otherModel, createScoreCache({ dir }), 'model-b').score([item(1)]);
    expect(otherModel.calls).toHaveLength(1);
  });

  it('does not remember unscored verdicts', async () => {
    const dir = await tempDir();
    const inner = countingScorer(['p1']);
    const scorer = cachedScorer(inner, createScoreCache({ dir }), 'model-a');
    await scorer.score([item(1)]);
    await scorer.score([item(1)]);
    expect(inner.calls).toHaveLength(2);
  });

  it('keeps scoring when the cache cannot be written', async () => {
    const dir = await tempDir();
    // A file where the cache folder should be: every write fails.
    const blocked = join(dir, 'not-a-dir');
    await writeFile(blocked, 'x');
    const scorer = cachedScorer(countingScorer(), createScoreCache({ dir: blocked }), 'model-a');
    const [result] = await scorer.score([item(1)]);
    expect(result?.kind).toBe('scored');
    expect(scorer.lastCacheError).toBeInstanceOf(Error);
  });
});
