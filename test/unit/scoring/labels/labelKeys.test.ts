/**
 * The content keys the editor matches labels by are made in the analysis worker from the full
 * texts: the same keys whether the texts were kept (editor text) or read back from disk (a file
 * analysed from its path), and the same the labels core makes from the texts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rolloutKey, stepKey } from '../../../../src/core/labels/contentKey';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { analysePath } from '../../../../src/scoring/analysis/analysePath';
import { labelKeysOf } from '../../../../src/scoring/labels/labelKeys';

const records = [
  { prompt: 'What is 2 + 2?', response: 'We add.\n\n2 + 2 = 4\n\nThe answer is \\boxed{4}.', answer: '4', step_scores: [0.9, 0.9, 0.9] },
  { prompt: 'What is 3 + 3?', responses: ['3 + 3 = 6.\n\nThe answer is \\boxed{6}.', 'It is \\boxed{7}.'], answer: '6' },
];
const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('label keys from the analysis worker', () => {
  it('are the keys of each rollout\'s prompt and response, with its steps\' keys when asked by id', async () => {
    const analysis = await analyseText(text, { fileName: 'r.jsonl', scorer: 'checker' });
    const all = await labelKeysOf({ analysis, disk: null }, null);
    expect(all).toEqual([
      { id: 0, key: rolloutKey(records[0]!.prompt, records[0]!.response!) },
      { id: 1, key: rolloutKey('What is 3 + 3?', '3 + 3 = 6.\n\nThe answer is \\boxed{6}.') },
      { id: 2, key: rolloutKey('What is 3 + 3?', 'It is \\boxed{7}.') },
    ]);
    const [first] = await labelKeysOf({ analysis, disk: null }, [0]);
    expect(first?.stepKeys).toEqual(['We add.', '2 + 2 = 4', 'The answer is \\boxed{4}.'].map(stepKey));
  });

  it('are the same for a file analysed from disk without its texts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prof-label-keys-'));
    const path = join(dir, 'r.jsonl');
    writeFileSync(path, text);
    const fromText = await labelKeysOf({ analysis: await analyseText(text, { fileName: path, scorer: 'checker' }), disk: null }, [0, 1, 2]);
    const read = await analysePath(path, { keepText: false, scorer: 'checker' });
    expect(read.analysis.rollouts[0]?.response).toBe('');
    const fromDisk = await labelKeysOf({ analysis: read.analysis, disk: { path, lines: read.lines! } }, [0, 1, 2]);
    expect(fromDisk).toEqual(fromText);
  });
});
