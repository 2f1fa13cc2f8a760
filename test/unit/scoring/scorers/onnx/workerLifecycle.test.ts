/**
 * The worker's lifecycle as a user meets it: a crash fails the request in flight with a clear
 * message and the next request works again; a cancelled request stops promptly and its queued
 * batches never run; dispose ends everything. A wrapper worker crashes or stalls on cue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnnxScorer, type OnnxScorer } from '../../../../../src/scoring/scorers/onnx/onnxScorer';
import type { ScoreItem } from '../../../../../src/scoring/scorers/scorer';
import { CRASH_TEXT, SLOW_TEXT, makeOnnxFixtures, type OnnxFixtures } from './fixtures';

let fx: OnnxFixtures;
const scorers: OnnxScorer[] = [];

beforeAll(async () => {
  fx = await makeOnnxFixtures(['tiny']);
});

afterAll(async () => {
  await Promise.all(scorers.map((s) => s.dispose()));
  fx.cleanup();
});

async function open(batchTokens?: number): Promise<OnnxScorer> {
  const scorer = await createOnnxScorer({
    modelDir: fx.model('tiny'), workerPath: fx.wrapperPath, providers: ['cpu'], intraOpThreads: 1,
    ...(batchTokens === undefined ? {} : { batchTokens }),
  });
  scorers.push(scorer);
  return scorer;
}

const PLAIN: ScoreItem = { id: 0, prompt: 'What is 2+3?', steps: ['2+3=5', 'The answer is 5.'] };
const slowItems = (n: number): ScoreItem[] =>
  Array.from({ length: n }, (_, i) => ({ id: i, prompt: `Problem ${i}`, steps: [`step ${SLOW_TEXT}`] }));

describe('onnx worker lifecycle', () => {
  it('retries a batch once when the worker dies under it, then fails it with a message and restarts for the next request', async () => {
    const scorer = await open();
    const [before] = await scorer.score([PLAIN]);
    const runsBefore = fx.runLog().length;
    await expect(scorer.score([{ id: 1, prompt: 'p', steps: [`boom ${CRASH_TEXT}`] }])).rejects.toThrow(
      /the ONNX scoring worker stopped unexpectedly \(exit code 3\); tried 2 times/,
    );
    // Sent once, then once more to the restarted worker.
    expect(fx.runLog().length - runsBefore).toBe(2);
    const [after] = await scorer.score([PLAIN]);
    expect(after).toEqual(before);
    expect(after?.kind).toBe('scored');
  });

  it('rejects a cancelled request promptly and skips its queued batches', async () => {
    const scorer = await open(1);
    await scorer.start();
    const runsBefore = fx.runLog().length;
    const controller = new AbortController();
    const pending = scorer.score(slowItems(8), { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 50));
    const abortedAt = performance.now();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - abortedAt).toBeLessThan(100);
    // Let the batches already handed to the worker (at most two) finish.
    await new Promise((r) => setTimeout(r, 800));
    expect(fx.runLog().length - runsBefore).toBeLessThanOrEqual(2);
    const [after] = await scorer.score([PLAIN]);
    expect(after?.kind).toBe('scored');
  });

  it('rejects at once when the signal is already aborted', async () => {
    const scorer = await open();
    const controller = new AbortController();
    controller.abort();
    await expect(scorer.score([PLAIN], { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('dispose fails work in progress, stops the worker, and is safe twice', async () => {
    const scorer = await open(1);
    const outcome = expect(scorer.score(slowItems(3))).rejects.toThrow(/disposed/);
    await new Promise((r) => setTimeout(r, 50));
    await scorer.dispose();
    await outcome;
    await scorer.dispose();
    await expect(scorer.score([PLAIN])).rejects.toThrow(/disposed/);
  });
});
