/**
 * Token heat in the analysis worker's terms: a prime-rl dump analysed from disk, its rollouts' heat
 * read back from their lines, placed with the Qwen2.5 tokenizer the user names, tint runs mapped to
 * the raw line; without a tokenizer, the values are said to be there but not placed.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analysePath } from '../../../../src/scoring/analysis/analysePath';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { keptAnalysisOf } from '../../../../src/scoring/analysis/rolloutDetails';
import { fileHeat } from '../../../../src/scoring/heat/fileHeat';
import { vocabFor } from '../../../../src/scoring/heat/tokenVocab';
import { resolveSettings } from '../../../../src/core/profSettings';
import { qwenTokenizerDir } from '../inputs/qwenFiles';

const PATH = join(__dirname, '../../../fixtures/trainers/prime-rl/outputs/rollouts/step_1/train/all/traces.jsonl');

async function keptFromDisk(tokenizerDir: string | undefined) {
  const settings = resolveSettings(tokenizerDir ? { tokenizerDir } : {});
  const read = await analysePath(PATH, { keepText: false, scorer: 'checker', settings });
  return keptAnalysisOf({ kind: 'path', path: PATH }, { analysis: read.analysis, ...(read.lines ? { lines: read.lines } : {}) });
}

describe('file heat', () => {
  it("places a prime-rl rollout's tokens and tints runs of its raw line", async () => {
    const kept = await keptFromDisk(qwenTokenizerDir());
    const answer = await fileHeat(kept, [0], true);
    const heat = answer.rollouts[0]!;
    expect(heat.tokenCount).toBe(234);
    if (!heat.placement.isPlaced) throw new Error(heat.placement.reason);
    const raw = readFileSync(PATH, 'utf8').split('\n')[0]!;
    const content = (JSON.parse(raw) as { traces: { nodes: { message: { content: string } }[] }[] }).traces[0]!.nodes[1]!.message.content;
    const rawRuns = heat.placement.rawRuns!;
    expect(rawRuns.length).toBeGreaterThan(0);
    // Each tinted raw run is the JSON-escaped form of the same run of the response.
    for (let k = 0; k < rawRuns.length; k += 3) {
      const text = content.slice(heat.placement.runs[k], heat.placement.runs[k + 1]);
      expect(raw.slice(rawRuns[k], rawRuns[k + 1])).toBe(JSON.stringify(text).slice(1, -1));
    }
    expect(answer.rankedRollouts).toBe(12);
    expect(answer.hot!.length).toBeGreaterThan(0);
    // The hottest tenth of the file's steps: step figures of rollouts the file has, in file order.
    const hot = answer.hot!;
    expect(hot.every((h) => h.rolloutId >= 0 && h.rolloutId < 12 && h.measure === 'logprob')).toBe(true);
    expect(hot.map((h) => h.rolloutId)).toEqual([...hot.map((h) => h.rolloutId)].sort((a, b) => a - b));
  });

  it('says the values are there but not placed when no tokenizer is found', async () => {
    const kept = await keptFromDisk(join(__dirname, 'no-such-folder'));
    const heat = (await fileHeat(kept, [0], false)).rollouts[0]!;
    expect(heat.tokenCount).toBe(234);
    expect(heat.placement).toMatchObject({ isPlaced: false });
    if (heat.placement.isPlaced) return;
    expect(heat.placement.reason).toMatch(/no-such-folder.*tokenizer\.json could not be read/);
    expect(heat.response.logprob!.count).toBe(234);
  });

  it("reads the editor's unsaved text again, not the disk", async () => {
    const text = readFileSync(PATH, 'utf8');
    const settings = resolveSettings({ tokenizerDir: qwenTokenizerDir() });
    const analysis = await analyseText(text, { fileName: PATH, scorer: 'checker', settings });
    const kept = keptAnalysisOf({ kind: 'text', text }, { analysis });
    const heat = (await fileHeat(kept, [1], false)).rollouts[0]!;
    expect(heat.placement.isPlaced).toBe(true);
  });
});

describe('the tokenizer of the model a record names', () => {
  it('is found in the Hugging Face cache, and said to be missing when it is not there', () => {
    const cache = mkdtempSync(join(tmpdir(), 'prof-hub-'));
    const snapshot = join(cache, 'models--Qwen--Qwen2.5-1.5B-Instruct', 'snapshots', 'abc123');
    mkdirSync(snapshot, { recursive: true });
    copyFileSync(join(qwenTokenizerDir(), 'tokenizer.json'), join(snapshot, 'tokenizer.json'));
    const before = process.env['HF_HUB_CACHE'];
    process.env['HF_HUB_CACHE'] = cache;
    try {
      const found = vocabFor({ tokenizerDir: null, filePath: PATH, model: 'Qwen/Qwen2.5-1.5B-Instruct' });
      expect(found.vocab?.size).toBeGreaterThan(150_000);
      const missing = vocabFor({ tokenizerDir: null, filePath: PATH, model: 'Qwen/Qwen2.5-7B-Instruct' });
      expect(missing.vocab).toBeNull();
      if (!missing.vocab) expect(missing.problem).toContain('the tokenizer of Qwen/Qwen2.5-7B-Instruct, which the record names, is not in the Hugging Face cache');
    } finally {
      if (before === undefined) delete process.env['HF_HUB_CACHE'];
      else process.env['HF_HUB_CACHE'] = before;
    }
  });
});
