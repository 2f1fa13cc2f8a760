/**
 * The editor's analysis with a critic (the worker's code path, without the editor): nothing is
 * sent before the user agrees to what the plan says; declining scores with the checker and says
 * why; rollouts already in the cache are neither counted nor sent; the critic's reason reaches the
 * flagged step's note and each endpoint's state reaches the summary.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SendPlan } from '../../../../src/protocol/analysis';
import type { ModelConfig } from '../../../../src/protocol/modelConfig';
import { analyseWithModel } from '../../../../src/scoring/analysis/modelAnalysis';
import { ModelScorers } from '../../../../src/scoring/scorers/modelScorers';
import { startFakeChatServer, type FakeChatServer } from '../scorers/critic/fakeChatServer';

const TEXT = [
  { uid: 'q', prompt: 'A box holds 12 pencils. How many in 3 boxes?', response: 'Each box has 12.\n\n3 × 12 = 38 pencils.\n\nThe answer is \\boxed{38}.', answer: '36' },
  { uid: 'q', prompt: 'A box holds 12 pencils. How many in 3 boxes?', response: 'Each box has 12.\n\n3 × 12 = 36 pencils.\n\nThe answer is \\boxed{36}.', answer: '36', step_scores: [0.1, 0.1, 0.1] },
].map((r) => JSON.stringify(r)).join('\n');

let server: FakeChatServer;
let cacheDir: string;
let models: ModelScorers;

beforeAll(async () => {
  server = await startFakeChatServer();
});
afterAll(() => server.close());
afterEach(async () => {
  await models.release();
  rmSync(cacheDir, { recursive: true, force: true });
});

function setup(): ModelConfig {
  cacheDir = mkdtempSync(join(tmpdir(), 'prof-lens-critic-analysis-'));
  models = new ModelScorers();
  return { kind: 'critic', urls: [server.url], cacheDir, maxTokens: 2048 };
}

function analyse(model: ModelConfig, confirmSend: (plan: SendPlan) => Promise<boolean>) {
  return analyseWithModel(TEXT, { fileName: 'r.jsonl', settings: {}, scorer: 'critic', model, models, signal: new AbortController().signal, confirmSend });
}

/** Chat requests that carried a rollout of the file (not the fixed probe). */
function rolloutRequests(): number {
  return server.chats().filter((r) => JSON.stringify(r.body).includes('How many in 3 boxes')).length;
}

describe('scoring a file with a critic in the editor', () => {
  it('sends nothing when the user declines, scores with the checker and says why', async () => {
    const model = setup();
    const before = rolloutRequests();
    const plans: SendPlan[] = [];
    const result = await analyse(model, async (plan) => (plans.push(plan), false));
    expect(plans).toEqual([{ rollouts: 2, approxTokens: expect.any(Number), maxAnswerTokens: 2048, urls: [server.url], model: 'fake-critic-7b' }]);
    expect(plans[0]!.approxTokens).toBeGreaterThan(200);
    expect(rolloutRequests()).toBe(before);
    expect(result.analysis.scorer.kind).toBe('checker');
    expect(result.modelDeclined).toMatch(/^You did not agree to send 2 rollouts to the critic at 127\.0\.0\.1:\d+, so the checker scored this file\./);
  });

  it('judges every rollout (even ones with file scores) once agreed, with the reason on the flagged step', async () => {
    const model = setup();
    const result = await analyse(model, async () => true);
    const [flawed, sound] = result.analysis.rollouts;
    expect(flawed?.stepScores).toEqual([1, 0, null]);
    expect(flawed?.stepNotes[1]).toBe('flagged by the critic: 3 × 12 is 36, not 38.');
    expect(flawed?.stepNotes[2]).toBe('not judged: after the first error');
    expect(sound?.stepScores).toEqual([1, 1, 1]);
    expect(result.analysis.scorer).toMatchObject({ kind: 'critic', model: 'fake-critic-7b' });
    expect(result.endpoints).toEqual([expect.objectContaining({ url: server.url, state: 'ready', done: expect.any(Number) })]);
  });

  it('does not ask again for rollouts the cache already holds', async () => {
    const model = setup();
    await analyse(model, async () => true);
    const sent = rolloutRequests();
    let asked = 0;
    const again = await analyse(model, async () => (asked++, true));
    expect(asked).toBe(0);
    expect(rolloutRequests()).toBe(sent);
    expect(again.analysis.rollouts[0]?.stepScores).toEqual([1, 0, null]);
  });
});
