import { describe, expect, it } from 'vitest';
import { readPrompt } from '../../../../src/core/transcript/promptReading';

const QUESTION = 'Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May. How many clips did Natalia sell altogether in April and May?';
const SYSTEM = 'You are a helpful assistant.';

describe('reading the question from a rendered chat', () => {
  it('reads ChatML with its special tokens (a NeMo-RL prompt)', () => {
    const prompt = `<|im_start|>system\n${SYSTEM}<|im_end|>\n<|im_start|>user\n${QUESTION}<|im_end|>\n<|im_start|>assistant\n`;
    const read = readPrompt(prompt);
    expect(read.question).toBe(QUESTION);
    expect(read.reading).toMatchObject({ kind: 'transcript', template: 'chatml', hasSpecialTokens: true, system: SYSTEM });
    expect(read.reading.turns.map((t) => t.role)).toEqual(['system', 'user']);
  });

  it('reads ChatML with the special tokens stripped (verl and TRL decode so)', () => {
    const read = readPrompt(`system\n${SYSTEM}\nuser\n${QUESTION}\nassistant\n`);
    expect(read.question).toBe(QUESTION);
    expect(read.reading).toMatchObject({ kind: 'transcript', template: 'chatml', hasSpecialTokens: false, system: SYSTEM });
  });

  it('reads a stripped ChatML prompt without a system turn, and one with an empty think block (Qwen3, thinking off)', () => {
    expect(readPrompt(`user\n${QUESTION}\nassistant\n`).question).toBe(QUESTION);
    const qwen3 = readPrompt(`user\n${QUESTION}\nassistant\n<think>\n\n</think>\n\n`);
    expect(qwen3.question).toBe(QUESTION);
    expect(qwen3.reading.kind).toBe('transcript');
  });

  it('keeps a multi-line question whole, blank lines and all', () => {
    const question = 'Solve:\n\n  x + 1 = 2\n\nGive x.';
    expect(readPrompt(`system\n${SYSTEM}\nuser\n${question}\nassistant\n`).question).toBe(question);
  });

  it('takes the last user turn of a multi-turn prompt', () => {
    const read = readPrompt(`<|im_start|>user\nFirst question<|im_end|>\n<|im_start|>assistant\nAn answer<|im_end|>\n<|im_start|>user\n${QUESTION}<|im_end|>\n<|im_start|>assistant\n`);
    expect(read.question).toBe(QUESTION);
    expect(read.reading.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('reads Llama 3 headers, with and without the tokens', () => {
    const sys = 'Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n' + SYSTEM;
    const tagged = readPrompt(`<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n${sys}<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n${QUESTION}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`);
    expect(tagged.question).toBe(QUESTION);
    expect(tagged.reading).toMatchObject({ template: 'llama3', hasSpecialTokens: true, system: sys });
    const stripped = readPrompt(`system\n\n${sys}user\n\n${QUESTION}assistant\n\n`);
    expect(stripped.question).toBe(QUESTION);
    expect(stripped.reading).toMatchObject({ kind: 'transcript', template: 'llama3', hasSpecialTokens: false, system: sys });
  });

  it('reads Gemma turns, with and without the tokens', () => {
    const tagged = readPrompt(`<bos><start_of_turn>user\n${QUESTION}<end_of_turn>\n<start_of_turn>model\n`);
    expect(tagged.question).toBe(QUESTION);
    expect(tagged.reading.template).toBe('gemma');
    const stripped = readPrompt(`user\n${QUESTION}\nmodel\n`);
    expect(stripped.question).toBe(QUESTION);
    expect(stripped.reading).toMatchObject({ template: 'gemma', hasSpecialTokens: false });
  });

  it('reads Phi-3, DeepSeek and Mistral tokens', () => {
    expect(readPrompt(`<|system|>\n${SYSTEM}<|end|>\n<|user|>\n${QUESTION}<|end|>\n<|assistant|>\n`)).toMatchObject({ question: QUESTION, reading: { template: 'phi3', system: SYSTEM } });
    expect(readPrompt(`<｜begin▁of▁sentence｜>${SYSTEM}<｜User｜>${QUESTION}<｜Assistant｜><think>\n`)).toMatchObject({ question: QUESTION, reading: { template: 'deepseek', system: SYSTEM } });
    expect(readPrompt(`<s>[INST] ${QUESTION} [/INST]`)).toMatchObject({ question: QUESTION, reading: { template: 'mistral' } });
  });

  it('leaves a plain prompt as it is', () => {
    const read = readPrompt(QUESTION);
    expect(read.question).toBe(QUESTION);
    expect(read.reading.kind).toBe('plain');
    // A question that merely starts with a role word is not a transcript.
    expect(readPrompt('user\nnames are case sensitive: what is the answer?').reading.kind).toBe('plain');
  });

  it('reads a question that says "user" on a line of its own right when the tokens are there', () => {
    const question = 'The word below is\nuser\nHow many letters does it have?';
    const read = readPrompt(`<|im_start|>system\n${SYSTEM}<|im_end|>\n<|im_start|>user\n${question}<|im_end|>\n<|im_start|>assistant\n`);
    expect(read.question).toBe(question);
    expect(read.reading.kind).toBe('transcript');
  });

  it('uses a stripped prompt whole, and says why, when a line saying "user" makes its turns ambiguous', () => {
    const prompt = `system\n${SYSTEM}\nuser\nThe word below is\nuser\nHow many letters does it have?\nassistant\n`;
    const read = readPrompt(prompt);
    expect(read.question).toBe(prompt);
    expect(read.reading.kind).toBe('whole');
    expect(read.reading.problem).toMatch(/two "user" role words in a row/);
    const assistantLine = readPrompt(`user\nCheck this:\nassistant\nwas it right?\nassistant\n`);
    expect(assistantLine.reading.kind).toBe('whole');
  });

  it('uses a transcript whole when it has no user turn, or a turn of an unknown role', () => {
    expect(readPrompt('<|im_start|>system\nonly a system prompt<|im_end|>\n').reading).toMatchObject({ kind: 'whole', problem: 'no user turn with words in it' });
    expect(readPrompt('<|im_start|>narrator\nonce upon a time<|im_end|>\n').reading.kind).toBe('whole');
  });
});
