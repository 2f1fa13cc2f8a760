/**
 * The ONNX scorer end to end through the real onnxruntime-node, on tiny generated models whose
 * scores are known by construction (see scripts/build-tiny-model.mjs). These scores test the
 * plumbing; they are not a PRM's judgement.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnnxScorer, defaultProviders, type OnnxScorer } from '../../../../../src/scoring/scorers/onnx/onnxScorer';
import { buildPrmInput } from '../../../../../src/scoring/scorers/profiles/prmInput';
import type { ScoreItem } from '../../../../../src/scoring/scorers/scorer';
import { makeOnnxFixtures, qwenTokenizer, tinyScore, type OnnxFixtures } from './fixtures';

let fx: OnnxFixtures;
const scorers: OnnxScorer[] = [];

beforeAll(async () => {
  fx = await makeOnnxFixtures(['tiny', 'tiny-fp16', 'tiny-external', 'tiny-value', 'tiny-bad-inputs']);
});

afterAll(async () => {
  await Promise.all(scorers.map((s) => s.dispose()));
  fx.cleanup();
});

async function open(variant: string, extra: { providers?: string[]; batchTokens?: number } = {}): Promise<OnnxScorer> {
  const scorer = await createOnnxScorer({ modelDir: fx.model(variant), workerPath: fx.workerPath, providers: ['cpu'], intraOpThreads: 1, ...extra });
  scorers.push(scorer);
  return scorer;
}

const ITEMS: ScoreItem[] = [
  { id: 0, prompt: 'What is 2+3?', steps: ['2+3=5', 'The answer is 5.'] },
  { id: 1, prompt: 'Compute 12 × 7.', steps: ['12 × 7 = 84', 'So the product is 84.', 'Answer: \\boxed{84}'] },
  { id: 2, prompt: 'Is 7 prime?', steps: ['Yes.'] },
];

/** Scores computed by hand from the model's construction, at the separator positions. */
function expectedScores(variant: 'qwen' | 'skywork', item: ScoreItem, bosId?: number): number[] {
  const profile = {
    name: variant === 'qwen' ? 'qwen-prm' : 'skywork-prm', model: 't', maxTokens: 4096,
    separatorId: variant === 'qwen' ? 151651 : 198, readout: { kind: 'softmax', labelIndex: 1 },
    bosId: bosId ?? null, padId: 151643, promptSuffix: '\n',
  } as const;
  const input = buildPrmInput({ profile, tokenizer: qwenTokenizer(), prompt: item.prompt, steps: item.steps });
  return input.separatorPositions.map((p) => tinyScore(input.ids, p));
}

describe('onnx scorer on a tiny qwen-prm model', () => {
  it('scores every step with the value the model computes at its separator, in item order', async () => {
    const scorer = await open('tiny');
    const results = await scorer.score(ITEMS);
    expect(results).toHaveLength(3);
    ITEMS.forEach((item, i) => {
      const result = results[i];
      if (result?.kind !== 'scored') throw new Error('expected scores');
      expect(result.scorer).toBe('onnx:qwen-prm@cpu');
      const expected = expectedScores('qwen', item);
      expect(result.scores).toHaveLength(item.steps.length);
      result.scores.forEach((s, k) => expect(s).toBeCloseTo(expected[k] as number, 6));
    });
    expect(scorer.info).toMatchObject({ kind: 'onnx', profile: 'qwen-prm', model: 'tiny-test-model (not a PRM)', provider: 'cpu' });
  });

  it('gives the same scores whatever the batching (padding is masked, order restored)', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ ...ITEMS[i % 3]!, id: i, prompt: `${ITEMS[i % 3]!.prompt} (${'x'.repeat(i)})` }));
    const [oneByOne, packed] = await Promise.all([open('tiny', { batchTokens: 1 }), open('tiny', { batchTokens: 4096 })]);
    const progress: number[] = [];
    const a = await oneByOne.score(many);
    const b = await packed.score(many, { onProgress: (done) => progress.push(done) });
    expect(b).toEqual(a);
    expect(progress[progress.length - 1]).toBe(40);
    many.forEach((item, i) => {
      const r = b[i];
      if (r?.kind !== 'scored') throw new Error('expected scores');
      expect(r.scores[0]).toBeCloseTo(expectedScores('qwen', item)[0] as number, 6);
    });
  });

  it('marks steps beyond the context as unscored (context) instead of dropping them', async () => {
    const dir = fx.model('tiny');
    writeFileSync(join(dir, 'prof-lens.json'), JSON.stringify({ profile: 'qwen-prm', model: 'tiny-test-model (not a PRM)', maxTokens: 45 }));
    const scorer = await open('tiny');
    const [result, none] = await scorer.score([ITEMS[0]!, { id: 9, prompt: 'x '.repeat(100), steps: ['a', 'b'] }]);
    writeFileSync(join(dir, 'prof-lens.json'), JSON.stringify({ profile: 'qwen-prm', model: 'tiny-test-model (not a PRM)' }));
    expect(result).toMatchObject({ kind: 'scored', notes: [null, 'unscored (context)'] });
    if (result?.kind !== 'scored') throw new Error('expected scores');
    expect(result.scores[0]).toBeCloseTo(expectedScores('qwen', ITEMS[0]!)[0] as number, 6);
    expect(result.scores[1]).toBeNull();
    expect(none).toMatchObject({ kind: 'scored', scores: [null, null], notes: ['unscored (context)', 'unscored (context)'] });
  });

  it('falls back to cpu when cuda cannot load, and says why', async () => {
    const scorer = await open('tiny', { providers: ['cuda', 'cpu'] });
    const info = await scorer.start();
    expect(info.provider).toBe('cpu');
    // This checkout has onnxruntime-node's CPU build only: the CUDA provider library is absent.
    expect(info.fallbackReason).toMatch(/^cuda unavailable: provider library not installed \(libonnxruntime_providers_shared\.so, libonnxruntime_providers_cuda\.so missing\)/);
    expect(info.label).toBe('onnx qwen-prm (cpu; cuda unavailable)');
    const [result] = await scorer.score([ITEMS[2]!]);
    expect(result).toMatchObject({ kind: 'scored', scorer: 'onnx:qwen-prm@cpu' });
  });
});

describe('onnx scorer model variants', () => {
  it('reads fp16 logits as halves converted to floats', async () => {
    const [result] = await (await open('tiny-fp16')).score([ITEMS[1]!]);
    if (result?.kind !== 'scored') throw new Error('expected scores');
    // Logits are multiples of 1/4 within ±3, exact in fp16: only the softmax differs.
    expectedScores('qwen', ITEMS[1]!).forEach((e, k) => expect(result.scores[k]).toBeCloseTo(e, 6));
  });

  it('loads weights from model.onnx_data beside model.onnx', async () => {
    const [result] = await (await open('tiny-external')).score([ITEMS[1]!]);
    if (result?.kind !== 'scored') throw new Error('expected scores');
    expectedScores('qwen', ITEMS[1]!).forEach((e, k) => expect(result.scores[k]).toBeCloseTo(e, 6));
  });

  it('reads a [B, T] value head through a sigmoid (skywork-prm)', async () => {
    const [result] = await (await open('tiny-value')).score([ITEMS[0]!]);
    if (result?.kind !== 'scored') throw new Error('expected scores');
    expect(result.scorer).toBe('onnx:skywork-prm@cpu');
    expectedScores('skywork', ITEMS[0]!).forEach((e, k) => expect(result.scores[k]).toBeCloseTo(e, 6));
  });

  it('names the inputs found and expected when the model does not fit the profile', async () => {
    const scorer = await open('tiny-bad-inputs');
    await expect(scorer.score([ITEMS[0]!])).rejects.toThrow(
      'model inputs do not fit the qwen-prm profile: found tokens, attention_mask; expected input_ids, optionally attention_mask and position_ids',
    );
    await expect(scorer.start()).rejects.toThrow(/found tokens/);
  });

  it('says what is missing from a model folder', async () => {
    await expect(createOnnxScorer({ modelDir: fx.root })).rejects.toThrow(/no model.onnx in /);
  });
});

describe('defaultProviders', () => {
  it('tries the platform GPU provider first, then cpu', () => {
    expect(defaultProviders('linux', 'x64')).toEqual(['cuda', 'cpu']);
    expect(defaultProviders('win32', 'x64')).toEqual(['dml', 'cpu']);
    expect(defaultProviders('darwin', 'arm64')).toEqual(['coreml', 'cpu']);
    expect(defaultProviders('darwin', 'x64')).toEqual(['cpu']);
  });
});
