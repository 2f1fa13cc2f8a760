import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPrmTokenizer } from '../../../../../src/scoring/scorers/profiles/checkpointTokenizer';
import { buildPrmInput } from '../../../../../src/scoring/scorers/profiles/prmInput';
import { parseProfileManifest, resolveProfile, type PrmProfile } from '../../../../../src/scoring/scorers/profiles/profile';
import { qwenTokenizer, qwenTokenizerDir } from '../onnx/fixtures';

const tokenizer = qwenTokenizer();
const profileOf = (manifest: Record<string, unknown>): PrmProfile =>
  resolveProfile(parseProfileManifest({ model: 'test', ...manifest }), tokenizer);

const PROMPT = 'What is 2+3?';
const STEPS = ['2+3=5', 'The answer is 5.'];

// Written out from the Qwen2.5 vocabulary: the ChatML header with the PRM system prompt, the
// question, then each step followed by 151651 (<extra_0> in the PRM, <|quad_end|> in stock Qwen).
const QWEN_IDS = [
  151644, 8948, 198, 5501, 2874, 3019, 553, 3019, 11, 323, 2182, 697, 1590, 4226, 2878, 1124, 79075, 46391,
  151645, 198, 151644, 872, 198, 3838, 374, 220, 17, 10, 18, 30, 151645, 198, 151644, 77091, 198,
  17, 10, 18, 28, 20, 151651, // "2+3=5" <extra_0> at 40
  785, 4226, 374, 220, 20, 13, 151651, // "The answer is 5." <extra_0> at 47
  151645, 151643, // <|im_end|><|endoftext|>
];

describe('buildPrmInput: qwen-prm', () => {
  const profile = profileOf({ profile: 'qwen-prm' });

  it('lays out ChatML with the separator id after every step, as the Qwen PRM card does', () => {
    const input = buildPrmInput({ profile, tokenizer, prompt: PROMPT, steps: STEPS });
    expect(input).toEqual({ ids: QWEN_IDS, separatorPositions: [40, 47], unscoredFromStep: null });
  });

  it('marks the steps whose separator falls beyond the context as unscored and cuts after the last scored one', () => {
    const input = buildPrmInput({ profile, tokenizer, prompt: PROMPT, steps: STEPS, maxTokens: 45 });
    expect(input).toEqual({ ids: QWEN_IDS.slice(0, 41), separatorPositions: [40], unscoredFromStep: 1 });
  });

  it('scores no step when even the first separator does not fit', () => {
    const input = buildPrmInput({ profile, tokenizer, prompt: PROMPT, steps: STEPS, maxTokens: 40 });
    expect(input).toEqual({ ids: [], separatorPositions: [], unscoredFromStep: 0 });
  });

  it('keeps every step when only the closing tokens overflow', () => {
    const input = buildPrmInput({ profile, tokenizer, prompt: PROMPT, steps: STEPS, maxTokens: 48 });
    expect(input).toEqual({ ids: QWEN_IDS.slice(0, 48), separatorPositions: [40, 47], unscoredFromStep: null });
  });

  it('uses the manifest context limit by default', () => {
    const short = profileOf({ profile: 'qwen-prm', maxTokens: 45 });
    expect(buildPrmInput({ profile: short, tokenizer, prompt: PROMPT, steps: STEPS }).unscoredFromStep).toBe(1);
  });
});

/** The Qwen2.5 tokenizer with id 151651 named `<extra_0>` as in the PRM's own tokenizer files. */
function prmNamedTokenizer(): ReturnType<typeof qwenTokenizer> {
  const json = JSON.parse(readFileSync(join(qwenTokenizerDir(), 'tokenizer.json'), 'utf8')) as { added_tokens: { id: number; content: string }[] };
  for (const t of json.added_tokens) if (t.id === 151651) t.content = '<extra_0>';
  const config = JSON.parse(readFileSync(join(qwenTokenizerDir(), 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  return createPrmTokenizer(json, config);
}

describe('buildPrmInput: qwen-prm with the PRM\'s own vocabulary (151651 = <extra_0>)', () => {
  const prm = prmNamedTokenizer();
  const profile = resolveProfile(parseProfileManifest({ model: 'test', profile: 'qwen-prm' }), prm);

  it('reads <extra_0> written in a step as text: one separator per step, none inside it', () => {
    expect(prm.encode('a<extra_0>b')).toContain(151651);
    const steps = ['Join steps with <extra_0> tokens.', 'The answer is 5.'];
    const input = buildPrmInput({ profile, tokenizer: prm, prompt: 'Why <extra_0>?', steps });
    expect(input.ids.filter((id) => id === 151651).length).toBe(2);
    expect(input.separatorPositions.map((p) => input.ids[p])).toEqual([151651, 151651]);
    // The literal is tokenized as the characters a stock Qwen tokenizer reads there.
    const stock = buildPrmInput({ profile: profileOf({ profile: 'qwen-prm' }), tokenizer, prompt: 'Why <extra_0>?', steps });
    expect(input).toEqual(stock);
  });

  it('lays out a rollout without the literal exactly as before', () => {
    expect(buildPrmInput({ profile, tokenizer: prm, prompt: PROMPT, steps: STEPS }).ids).toEqual(QWEN_IDS);
  });
});

describe('buildPrmInput: skywork-prm', () => {
  it('puts bos, the prompt with "\\n", then each step tokenized alone and followed by 198', () => {
    const profile = profileOf({ profile: 'skywork-prm', bosId: 151643 });
    const input = buildPrmInput({ profile, tokenizer, prompt: PROMPT, steps: STEPS });
    expect(input.ids).toEqual([
      151643, 3838, 374, 220, 17, 10, 18, 5267, // bos "What is 2+3?\n" ("?\n" is one token)
      17, 10, 18, 28, 20, 198,
      785, 4226, 374, 220, 20, 13, 198,
    ]);
    expect(input.separatorPositions).toEqual([13, 20]);
    expect(profile.readout).toEqual({ kind: 'sigmoid', labelIndex: 1 });
  });

  it('adds no bos when neither the manifest nor the tokenizer config names one', () => {
    const profile = profileOf({ profile: 'skywork-prm' });
    expect(buildPrmInput({ profile, tokenizer, prompt: 'Q', steps: ['a'] }).ids).toEqual([48, 198, 64, 198]);
  });
});

describe('buildPrmInput: lmhead-prm', () => {
  // Qwen splits " ки" into 7665 1802, so the tag id is 1802 for this vocabulary.
  const profile = profileOf({ profile: 'lmhead-prm', separatorId: 1802 });

  it('tokenizes "question step ки\\nstep ки" as one string and reads at the tag ids', () => {
    const input = buildPrmInput({ profile, tokenizer, prompt: 'Q', steps: ['a', 'b'] });
    expect(input).toEqual({ ids: [48, 264, 7665, 1802, 198, 65, 7665, 1802], separatorPositions: [3, 7], unscoredFromStep: null });
  });

  it('refuses to guess when a step contains the tag itself', () => {
    expect(() => buildPrmInput({ profile, tokenizer, prompt: 'Q', steps: ['a ки b', 'c'] })).toThrow(/3 step tags .* for 2 steps/);
  });

  it('defaults to Math-Shepherd ids', () => {
    expect(profileOf({ profile: 'lmhead-prm' }).separatorId).toBe(12902);
  });
});

describe('buildPrmInput: token-cls-prm', () => {
  it('uses a separator given as text and the configured readout', () => {
    const profile = profileOf({ profile: 'token-cls-prm', separatorText: '\n\n', readout: 'sigmoid', promptSuffix: '' });
    const input = buildPrmInput({ profile, tokenizer, prompt: 'Q', steps: ['a', 'b'] });
    expect(input).toEqual({ ids: [48, 64, 271, 65, 271], separatorPositions: [2, 4], unscoredFromStep: null });
    expect(profile.readout.kind).toBe('sigmoid');
  });

  it('needs a separator', () => {
    expect(() => profileOf({ profile: 'token-cls-prm' })).toThrow(/needs "separatorId" or "separatorText"/);
  });

  it('rejects a separator text that is not one token', () => {
    expect(() => profileOf({ profile: 'token-cls-prm', separatorText: ' ки' })).toThrow(/is 2 tokens \(7665, 1802\)/);
  });
});
