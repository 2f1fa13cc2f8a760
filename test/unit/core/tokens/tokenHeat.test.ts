/**
 * Token heat on trainers' own dumps: prime-rl's sampled nodes and NeMo-RL's masked sequences carry
 * token ids and log-probabilities; the Qwen2.5 vocabulary places them on the response's text.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { readText } from '../../../../src/core/read/reader';
import { prepareRecord, type PreparedRollout } from '../../../../src/core/formats/prepareRollout';
import { resolveSettings } from '../../../../src/core/profSettings';
import { responseTokens, type ResponseTokens } from '../../../../src/core/tokens/tokenValues';
import { byteVocabOf, type ByteVocab } from '../../../../src/core/tokens/byteVocab';
import { placeTokenBytes, placeTokenTexts } from '../../../../src/core/tokens/tokenPlacement';
import { heatBucket, responseHeat } from '../../../../src/core/tokens/tokenHeat';
import { hotSteps } from '../../../../src/core/tokens/hotSteps';
import { heatLines } from '../../../../src/core/tokens/heatWords';
import { qwenTokenizerDir } from '../../scoring/inputs/qwenFiles';

const TRAINERS = join(__dirname, '../../../fixtures/trainers');
const tokenizerJson = JSON.parse(readFileSync(join(qwenTokenizerDir(), 'tokenizer.json'), 'utf8')) as object;
const vocab = byteVocabOf(tokenizerJson) as ByteVocab;
const reference = new Tokenizer(tokenizerJson, {});

function firstRollout(path: string): { prepared: PreparedRollout; value: unknown } {
  const records = readText(readFileSync(join(TRAINERS, path), 'utf8'), path).records;
  const record = records[0]!;
  const prepared = prepareRecord(record, { settings: resolveSettings(), rawOffsets: false, firstId: 0 }).rollouts[0]!;
  return { prepared, value: record.value };
}

function place(text: string, tokens: ResponseTokens) {
  return placeTokenBytes(text, tokens.ids!.map((id) => vocab.bytesOf(id)));
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('token heat', () => {
  it('reads the Qwen2.5 vocabulary as bytes, special tokens writing no text', () => {
    expect(vocab.size).toBeGreaterThan(150_000);
    expect(vocab.bytesOf(151645)).toBeNull();
    expect(new TextDecoder().decode(vocab.bytesOf(reference.encode(' dozen').ids[0]!)!)).toBe(' dozen');
  });

  it("places prime-rl's sampled tokens on the response and gives each step the mean and min of its tokens", () => {
    const { prepared, value } = firstRollout('prime-rl/outputs/rollouts/step_1/train/all/traces.jsonl');
    const tokens = responseTokens(value, 0)!;
    expect(tokens.logprobs).toHaveLength(234);
    expect(tokens.ids).toHaveLength(234);
    expect(tokens.model).toBe('Qwen/Qwen2.5-1.5B-Instruct');
    const placement = place(prepared.rollout.response, tokens);
    expect(placement.isPlaced).toBe(true);
    if (!placement.isPlaced) return;
    // Each token covers the text the reference tokenizer decodes it to.
    for (const i of [0, 10, 100, 200]) {
      expect(prepared.rollout.response.slice(placement.starts[i], placement.ends[i])).toBe(reference.decode([tokens.ids![i]!]));
    }
    const heat = responseHeat(tokens, placement, prepared.steps);
    if (!heat.placement.isPlaced) throw new Error('not placed');
    expect(heat.placement.steps).toHaveLength(prepared.steps.length);
    // Step 1's tokens are those the reference decodes to text inside it.
    const step = prepared.steps[0]!;
    let written = 0;
    const inStep: number[] = [];
    tokens.ids!.forEach((id, i) => {
      if (written >= step.start && written < step.end) inStep.push(tokens.logprobs![i]!);
      written += reference.decode([id]).length;
    });
    expect(heat.placement.steps[0]!.logprob!.count).toBe(inStep.length);
    expect(heat.placement.steps[0]!.logprob!.mean).toBeCloseTo(mean(inStep), 10);
    expect(heat.placement.steps[0]!.logprob!.extreme).toBe(Math.min(...inStep));
    expect(heatLines(heat, 0, null)[0]).toMatch(/^Step 1 log-probability: mean −0\.\d{3}, min −0\.\d{3} over \d+ tokens$/);
    // Runs are tinted text, in order, each of a token bucket.
    for (const run of heat.placement.runs) expect(run.end).toBeGreaterThan(run.start);
  });

  it("keeps only NeMo-RL's generated tokens (token_loss_mask), end-of-turn placed nowhere", () => {
    const { prepared, value } = firstRollout('nemo-rl/logs/exp_001/train_data_step1.jsonl');
    const record = value as { token_loss_mask: number[][]; generation_logprobs: number[][] };
    const kept = record.token_loss_mask[0]!.filter((m) => m !== 0).length;
    const tokens = responseTokens(value, 0)!;
    expect(tokens.logprobs).toHaveLength(kept);
    expect(tokens.ids).toHaveLength(kept);
    const placement = place(prepared.rollout.response, tokens);
    if (!placement.isPlaced) throw new Error(placement.reason);
    expect(placement.starts[kept - 1]).toBe(-1);
    expect(placement.ends[kept - 2]).toBe(prepared.rollout.response.length);
    const expected = record.generation_logprobs[0]!.filter((_, i) => record.token_loss_mask[0]![i] !== 0);
    expect(responseHeat(tokens, placement, prepared.steps).response.logprob!.mean).toBeCloseTo(mean(expected), 10);
  });

  it("places open-instruct's response tokens on the text they were decoded to", () => {
    const { value } = firstRollout('open-instruct/rollouts/grpo_qwen_gsm8k__1__1766000000_rollouts_000000.jsonl');
    const tokens = responseTokens(value, 0)!;
    expect(tokens.ids).toHaveLength(83);
    // The record holds ids only: its text is what the tokenizer decodes them to.
    const text = reference.decode(tokens.ids!, { skip_special_tokens: true });
    const placement = place(text, tokens);
    if (!placement.isPlaced) throw new Error(placement.reason);
    expect(text.slice(placement.starts[0], placement.ends[0])).toBe(reference.decode([tokens.ids![0]!]));
  });

  it('places nothing when the decoded tokens are not the response, and says what it has instead', () => {
    const { prepared, value } = firstRollout('prime-rl/outputs/rollouts/step_1/train/all/traces.jsonl');
    const tokens = responseTokens(value, 0)!;
    const edited = prepared.rollout.response.replace('donuts', 'bagels');
    const placement = place(edited, tokens);
    expect(placement.isPlaced).toBe(false);
    if (placement.isPlaced) return;
    expect(placement.reason).toMatch(/^token \d+ decodes to text that differs from the response at character \d+$/);
    const heat = responseHeat(tokens, placement, prepared.steps);
    const lines = heatLines(heat, 0, null);
    expect(lines[0]).toContain('carries 234 per-token values that cannot be placed on the text');
    expect(lines[1]).toMatch(/^Response log-probability: mean −0\.\d{3}, min −0\.\d{3} over 234 tokens$/);
  });

  it('does not place tokens that stop short of the response, nor ids the vocabulary lacks', () => {
    expect(placeTokenTexts('ab', ['a'])).toEqual({ isPlaced: false, reason: "the tokens decode to 1 of the response's 2 characters" });
    expect(placeTokenBytes('a', [undefined])).toMatchObject({ isPlaced: false, reason: "token 1 is not in the tokenizer's vocabulary" });
  });

  it('places token texts that split a character between them on that character', () => {
    const bytes = new TextEncoder().encode('é');
    const placement = placeTokenBytes('xé', [new Uint8Array([120]), bytes.subarray(0, 1), bytes.subarray(1)]);
    if (!placement.isPlaced) throw new Error(placement.reason);
    expect([...placement.starts]).toEqual([0, 1, 1]);
    expect([...placement.ends]).toEqual([1, 2, 2]);
  });

  it('tints lower probabilities and higher entropies hotter', () => {
    expect(heatBucket('logprob', Math.log(0.9))).toBe(0);
    expect(heatBucket('logprob', Math.log(0.3))).toBe(1);
    expect(heatBucket('logprob', Math.log(0.001))).toBe(4);
    expect(heatBucket('entropy', 0.1)).toBe(0);
    expect(heatBucket('entropy', 2.5)).toBe(3);
  });

  it("lists the tenth of a file's steps with the lowest mean log-probability, in file order", () => {
    const steps = Array.from({ length: 20 }, (_, i) => ({ rolloutId: i, step: 0, heat: { logprob: { mean: -i / 10, extreme: -1, count: 3 }, entropy: null } }));
    expect(hotSteps(steps).map((s) => s.rolloutId)).toEqual([18, 19]);
  });
});
