import { describe, expect, it } from 'vitest';
import { parseProfileManifest, resolveProfile } from '../../../../../src/scoring/scorers/profiles/profile';
import type { PrmTokenizer } from '../../../../../src/scoring/scorers/profiles/checkpointTokenizer';

const stubTokenizer: PrmTokenizer = { encode: () => [], bosId: 7, padId: 9 };

describe('parseProfileManifest', () => {
  it('reads the manifest of a Qwen PRM folder', () => {
    const manifest = parseProfileManifest({
      profile: 'qwen-prm', model: 'Qwen/Qwen2.5-Math-PRM-7B', maxTokens: 4096, separatorId: 151651,
    });
    expect(manifest).toMatchObject({ profile: 'qwen-prm', model: 'Qwen/Qwen2.5-Math-PRM-7B', maxTokens: 4096, separatorId: 151651 });
  });

  it('names the known profiles when the profile is unknown', () => {
    expect(() => parseProfileManifest({ profile: 'qwen', model: 'm' })).toThrow(
      /"profile" must be one of qwen-prm, skywork-prm, lmhead-prm, token-cls-prm, found "qwen"/,
    );
  });

  it('says which field is wrong and what it should be', () => {
    expect(() => parseProfileManifest({ profile: 'qwen-prm', model: 'm', maxTokens: -1 })).toThrow(/"maxTokens" must be a positive integer, found -1/);
    expect(() => parseProfileManifest({ profile: 'qwen-prm', model: 'm', readout: 'max' })).toThrow(/"readout" must be "softmax" or "sigmoid"/);
    expect(() => parseProfileManifest({ profile: 'qwen-prm' })).toThrow(/"model" must name the checkpoint/);
    expect(() => parseProfileManifest([])).toThrow(/must hold a JSON object/);
  });
});

describe('resolveProfile', () => {
  it('fills the qwen-prm defaults and pads with the tokenizer pad id', () => {
    const profile = resolveProfile(parseProfileManifest({ profile: 'qwen-prm', model: 'm' }), stubTokenizer);
    expect(profile).toMatchObject({
      separatorId: 151651, maxTokens: 4096, readout: { kind: 'softmax', labelIndex: 1 }, bosId: null, padId: 9,
    });
  });

  it('keeps the named profiles readout fixed even if the manifest asks otherwise', () => {
    const profile = resolveProfile(parseProfileManifest({ profile: 'qwen-prm', model: 'm', readout: 'sigmoid' }), stubTokenizer);
    expect(profile.readout.kind).toBe('softmax');
  });

  it('gives skywork-prm a sigmoid readout, separator 198 and the tokenizer bos', () => {
    const profile = resolveProfile(parseProfileManifest({ profile: 'skywork-prm', model: 'm' }), stubTokenizer);
    expect(profile).toMatchObject({ separatorId: 198, readout: { kind: 'sigmoid' }, bosId: 7 });
  });
});
