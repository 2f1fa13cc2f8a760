/**
 * The editor's model scoring: one model kept open across analyses, closed when the settings change,
 * and a model that cannot load or breaks while scoring turning into a fallback with a reason, never
 * a failed analysis.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepScoring } from '../../../../src/core/model';
import type { ModelConfig } from '../../../../src/protocol/modelConfig';
import { createScorerChain } from '../../../../src/scoring/scorers/chain';
import { analyseWithModel, type ModelAnalysisOptions } from '../../../../src/scoring/analysis/modelAnalysis';
import { ModelScorers, openModelScorer } from '../../../../src/scoring/scorers/modelScorers';
import type { ScoreItem, Scorer } from '../../../../src/scoring/scorers/scorer';
import { makeOnnxFixtures, type OnnxFixtures } from '../scorers/onnx/fixtures';

const TEXT = [
  { prompt: 'What is 2 + 3?', response: 'We add 2 and 3.\n\n2 + 3 = 5\n\nThe answer is \\boxed{5}.', answer: '5' },
  { prompt: 'What is 2 + 3?', response: 'We add them.\n\n2 + 3 = 6\n\nThe answer is \\boxed{6}.', answer: '5', step_scores: [0.9, 0.2, 0.1] },
].map((r) => JSON.stringify(r)).join('\n');

const onnxConfig = (modelDir: string, extra: Partial<{ workerPath: string; cacheDir: string }> = {}): ModelConfig =>
  ({ kind: 'onnx', modelDir, workerPath: extra.workerPath ?? '/nowhere/onnxWorker.js', cacheDir: extra.cacheDir ?? '/nowhere' });

/** A model scorer that scores every step 0.25, or fails when told to. */
class FakeScorer implements Scorer {
  readonly info = { kind: 'onnx', label: 'onnx fake (cpu)', provider: 'cpu' };
  calls = 0;
  isDisposed = false;
  shouldFail = false;

  async score(items: readonly ScoreItem[]): Promise<StepScoring[]> {
    this.calls++;
    if (this.shouldFail) throw new Error('the ONNX scoring worker stopped unexpectedly (exit code 3)');
    return items.map((item) => ({ kind: 'scored', scores: item.steps.map(() => 0.25), scorer: 'onnx:fake@cpu' }));
  }

  async dispose(): Promise<void> {
    this.isDisposed = true;
  }
}

function fakeModels(): { models: ModelScorers; opened: FakeScorer[]; failNextOpen: (message: string) => void } {
  const opened: FakeScorer[] = [];
  let failure: string | null = null;
  const models = new ModelScorers(async () => {
    if (failure !== null) {
      const message = failure;
      failure = null;
      throw new Error(message);
    }
    const scorer = new FakeScorer();
    opened.push(scorer);
    return scorer;
  });
  return { models, opened, failNextOpen: (message) => (failure = message) };
}

function options(models: ModelScorers, overrides: Partial<ModelAnalysisOptions> = {}): ModelAnalysisOptions {
  return { fileName: 'r.jsonl', settings: {}, scorer: 'onnx', model: onnxConfig('/m'), models, signal: new AbortController().signal, ...overrides };
}

describe('which chain a user choice runs', () => {
  it('forces the model for onnx and http, and falls back to the checker without one', () => {
    const model = new FakeScorer();
    expect(createScorerChain('onnx', model).info.label).toBe(model.info.label);
    expect(createScorerChain('http').info.kind).toBe('checker');
    expect(createScorerChain('auto', model).info.label).toBe(`file, else ${model.info.label}`);
    expect(createScorerChain('file', model).info.kind).toBe('file');
  });
});

describe('the model kept open across analyses', () => {
  it('opens the model once for many analyses of the same settings', async () => {
    const { models, opened } = fakeModels();
    for (let i = 0; i < 3; i++) {
      const { analysis, modelError } = await analyseWithModel(TEXT, options(models));
      expect(modelError).toBeUndefined();
      expect(analysis.rollouts.map((r) => r.scorer)).toEqual(['onnx:fake@cpu', 'onnx:fake@cpu']);
    }
    expect(opened).toHaveLength(1);
    expect(opened[0]?.calls).toBe(3);
  });

  it('under auto, keeps the file\'s scores and sends only the rest to the model', async () => {
    const { models } = fakeModels();
    const { analysis } = await analyseWithModel(TEXT, options(models, { scorer: 'auto' }));
    expect(analysis.rollouts.map((r) => r.scorer)).toEqual(['onnx:fake@cpu', 'file']);
    expect(analysis.scorer.label).toBe('file, else onnx fake (cpu)');
  });

  it('closes the model when the settings name another one, or none', async () => {
    const { models, opened } = fakeModels();
    await analyseWithModel(TEXT, options(models));
    await analyseWithModel(TEXT, options(models, { model: onnxConfig('/other') }));
    expect(opened.map((s) => s.isDisposed)).toEqual([true, false]);
    await models.configure(onnxConfig('/other'));
    expect(opened[1]?.isDisposed).toBe(false);
    await models.configure(null);
    expect(opened[1]?.isDisposed).toBe(true);
  });

  it('a model that cannot load gives the checker\'s scores and the reason, and is not reloaded per edit', async () => {
    const { models, opened, failNextOpen } = fakeModels();
    failNextOpen('no model.onnx in /m');
    const first = await analyseWithModel(TEXT, options(models));
    expect(first.modelError).toMatch(/^The ONNX model in \/m could not be loaded: no model\.onnx in \/m\. Expected a folder with model\.onnx/);
    expect(first.analysis.scorer.label).toBe('checker');
    expect(first.analysis.rollouts.every((r) => r.scorer === 'checker')).toBe(true);
    const again = await analyseWithModel(TEXT, options(models));
    expect(again.modelError).toBe(first.modelError);
    expect(opened).toHaveLength(0);
    const retried = await analyseWithModel(TEXT, options(models, { shouldRetryModel: true }));
    expect(retried.modelError).toBeUndefined();
    expect(opened).toHaveLength(1);
  });

  it('a model that breaks while scoring is closed and the analysis completes with the checker', async () => {
    const { models, opened } = fakeModels();
    await analyseWithModel(TEXT, options(models));
    const scorer = opened[0]!;
    scorer.shouldFail = true;
    const { analysis, modelError } = await analyseWithModel(TEXT, options(models));
    expect(modelError).toMatch(/failed while scoring: the ONNX scoring worker stopped unexpectedly/);
    expect(analysis.rollouts).toHaveLength(2);
    expect(analysis.scorer.kind).toBe('checker');
    expect(scorer.isDisposed).toBe(true);
  });

  it('a cancelled analysis is cancelled, not a model failure', async () => {
    const { models } = fakeModels();
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(analyseWithModel(TEXT, options(models, { signal: controller.signal }))).rejects.toThrow('cancelled');
  });

  it('names the loading phase and the model while scoring', async () => {
    const { models } = fakeModels();
    const activities = new Set<string>();
    await analyseWithModel(TEXT, options(models, { onProgress: (_d, _t, activity) => activity && activities.add(activity) }));
    expect([...activities]).toEqual(['loading ONNX model m', 'scoring with onnx fake (cpu)']);
  });
});

describe('a real ONNX model through the editor\'s path (tiny plumbing model, not a PRM)', () => {
  let fx: OnnxFixtures;
  let cacheDir: string;
  beforeAll(async () => {
    fx = await makeOnnxFixtures(['tiny', 'tiny-bad-inputs']);
    cacheDir = mkdtempSync(join(tmpdir(), 'prof-lens-model-cache-'));
  }, 120_000);
  afterAll(() => {
    fx?.cleanup();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('scores on cpu, says which provider runs, and answers a second analysis from the score cache', async () => {
    const models = new ModelScorers(openModelScorer);
    const model = onnxConfig(fx.model('tiny'), { workerPath: fx.workerPath, cacheDir });
    try {
      const { analysis, modelError } = await analyseWithModel(TEXT, options(models, { model }));
      expect(modelError).toBeUndefined();
      expect(analysis.rollouts.map((r) => r.scorer)).toEqual(['onnx:qwen-prm@cpu', 'onnx:qwen-prm@cpu']);
      expect(analysis.scorer.label).toMatch(/^onnx qwen-prm \(cpu(; .+ unavailable)?\)$/);
      expect(analysis.scorer.model).toBe('tiny-test-model (not a PRM)');
      // A fresh holder (a restarted editor) finds the scores in the cache.
      const reopened = new ModelScorers(openModelScorer);
      const result = await reopened.acquire(model);
      if (!('scorer' in result)) throw new Error(result.error);
      await analyseWithModel(TEXT, options(reopened, { model }));
      expect((result.scorer as unknown as { lastStats: { hits: number; misses: number } }).lastStats).toEqual({ hits: 2, misses: 0 });
      await reopened.release();
    } finally {
      await models.release();
    }
  }, 60_000);

  it('a model whose inputs do not fit the profile is named with what was found and expected', async () => {
    const models = new ModelScorers(openModelScorer);
    const model = onnxConfig(fx.model('tiny-bad-inputs'), { workerPath: fx.workerPath, cacheDir });
    const { analysis, modelError } = await analyseWithModel(TEXT, options(models, { model }));
    expect(modelError).toContain('found tokens, attention_mask; expected input_ids');
    expect(modelError).toContain(fx.model('tiny-bad-inputs'));
    expect(analysis.scorer.label).toBe('checker');
    await models.release();
  }, 60_000);
});

describe('a vLLM endpoint that is not one', () => {
  it('says what answered and what was expected, and scores with the checker', async () => {
    const server = createServer((_request, response) => response.writeHead(404, { 'content-type': 'text/plain' }).end('not found'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const cacheDir = mkdtempSync(join(tmpdir(), 'prof-lens-http-cache-'));
    const models = new ModelScorers(openModelScorer);
    try {
      const { analysis, modelError } = await analyseWithModel(TEXT, options(models, { scorer: 'http', model: { kind: 'http', urls: [url], cacheDir } }));
      expect(modelError).toMatch(new RegExp(`^The scoring server at ${url} could not be used: .*404`));
      expect(modelError).toContain('Expected a vLLM server running a process reward model');
      expect(analysis.scorer.label).toBe('checker');
    } finally {
      await models.release();
      server.close();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
