/**
 * The Explorer's export reads the file again: it must be the file analysed (identity and the hash
 * of the bytes the analysis read, as `filter` checks), and it must read the file as the analysis
 * did — a parquet file's rows as lines of JSON, token-id traces with the analysis's tokenizer —
 * so an export from them writes the selected records, and a search finds what the analysis read.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { analyseWithModel } from '../../../../src/scoring/analysis/modelAnalysis';
import { keptAnalysisOf } from '../../../../src/scoring/analysis/rolloutDetails';
import { ModelScorers } from '../../../../src/scoring/scorers/modelScorers';
import { openExplorer, type ExplorerSession } from '../../../../src/scoring/explore/explorerSession';
import type { ProfSettings } from '../../../../src/core/profSettings';
import { qwenTokenizerDir } from '../inputs/qwenFiles';

const ROOT = join(__dirname, '../../../..');
const TRACES = join(ROOT, 'test/fixtures/trainers/open-instruct/rollouts');
const RUN = 'grpo_qwen_gsm8k__1__1766000000';
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-export-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The explorer the editor's worker opens on a file on disk, kept as the worker keeps it. */
async function explorerOf(path: string, settings: Partial<ProfSettings> = { m: 2 }): Promise<ExplorerSession> {
  const options = { fileName: path, settings, scorer: 'checker' as const, model: null, models: new ModelScorers(), signal: new AbortController().signal };
  const source = { kind: 'path' as const, path };
  return openExplorer(keptAnalysisOf(source, await analyseWithModel(source, options)));
}

const records = Array.from({ length: 8 }, (_, i) => JSON.stringify({ prompt: `What is ${i} + ${i}?`, response: `${i} + ${i} = ${2 * i}.\n\n#### ${2 * i}`, answer: `${2 * i}` }));

describe('export from a file rewritten since it was analysed', () => {
  it('the same shape, size and time but other bytes: refused, nothing written', async () => {
    const path = join(dir, 'same-shape.jsonl');
    writeFileSync(path, records.join('\n') + '\n');
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    const explorer = await explorerOf(path);
    // Each line's answer changed to another of the same length: every line still holds one rollout.
    writeFileSync(path, records.map((r) => r.replace(/#### (\d+)/, (_, n: string) => `#### ${String((Number(n) + 1) % 10 ** n.length).padStart(n.length, '0')}`)).join('\n') + '\n');
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    const out = join(dir, 'same-shape-out.jsonl');
    const started = performance.now();
    await expect(explorer.exportSelection([1, 2], out)).rejects.toThrow(/same-shape\.jsonl changed since it was analysed \(its bytes are not the ones analysed, though its size and time are\): nothing was exported/);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(() => statSync(out)).toThrow();
  });

  it('another size: refused before anything is read', async () => {
    const path = join(dir, 'grown.jsonl');
    writeFileSync(path, records.join('\n') + '\n');
    const explorer = await explorerOf(path);
    writeFileSync(path, records.map((r) => r.replace('What is', 'What, then, is')).join('\n') + '\n');
    const out = join(dir, 'grown-out.jsonl');
    await expect(explorer.exportSelection([0], out)).rejects.toThrow(/grown\.jsonl changed size \([\d,]+ → [\d,]+ bytes\) since it was analysed: nothing was exported/);
    expect(() => statSync(out)).toThrow();
  });

  it('a file left alone is exported', async () => {
    const path = join(dir, 'steady.jsonl');
    writeFileSync(path, records.join('\n') + '\n');
    const explorer = await explorerOf(path);
    const out = join(dir, 'steady-out.jsonl');
    expect(await explorer.exportSelection([6, 1], out)).toEqual({ lines: 2, rollouts: 2 });
    expect(readFileSync(out, 'utf8')).toBe(`${records[1]}\n${records[6]}\n`);
  });
});

describe('export and search on files that are not JSON Lines', () => {
  it('parquet: the selected rows as lines of JSON, the records the analysis read', async () => {
    const path = join(dir, 'completions_00003.parquet');
    const prompts = ['What is 2 + 2?', 'What is 3 + 3?', 'What is 4 + 4?'];
    writeFileSync(path, Buffer.from(parquetWriteBuffer({
      columnData: [
        { name: 'step', data: [3n, 3n, 3n], type: 'INT64' },
        { name: 'prompt', data: prompts, type: 'STRING' },
        { name: 'completion', data: ['2 + 2 = 4\n\n#### 4', '3 + 3 = 7\n\n#### 7', '4 + 4 = 8\n\n#### 8'], type: 'STRING' },
        { name: 'accuracy_reward', data: [1, 0, 1], type: 'DOUBLE' },
        { name: 'advantage', data: [0.5, -1, 0.5], type: 'DOUBLE' },
      ],
    })));
    const explorer = await explorerOf(path);
    const out = join(dir, 'parquet-selection.jsonl');
    expect(await explorer.exportSelection([2, 0], out)).toEqual({ lines: 2, rollouts: 2 });
    const written = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(written.map((r) => [r.prompt, r.completion, r.accuracy_reward])).toEqual([[prompts[0], '2 + 2 = 4\n\n#### 4', 1], [prompts[2], '4 + 4 = 8\n\n#### 8', 1]]);
    // The export is a file PROF Lens reads as it read the rows.
    const again = await explorerOf(out);
    expect(again.engine.table.count).toBe(2);
  });

  it('token-id traces: exported and searched with the tokenizer the analysis used', async () => {
    const run = join(dir, 'run');
    mkdirSync(run);
    for (const name of [`${RUN}_rollouts_000000.jsonl`, `${RUN}_metadata.jsonl`]) copyFileSync(join(TRACES, name), join(run, name));
    const path = join(run, `${RUN}_rollouts_000000.jsonl`);
    const explorer = await explorerOf(path, { m: 2, tokenizerDir: qwenTokenizerDir() });
    expect(explorer.engine.table.count).toBe(24);
    const hits = await explorer.engine.query({ version: 1, filter: { search: { text: 'Janet’s ducks', mode: 'plain' } }, sort: null });
    expect(hits.ids.length).toBe(4);
    const out = join(dir, 'traces-selection.jsonl');
    expect(await explorer.exportSelection([hits.ids[0]!, hits.ids[3]!], out)).toEqual({ lines: 2, rollouts: 2 });
    const lines = readFileSync(path, 'utf8').split('\n');
    const expected = [hits.ids[0]!, hits.ids[3]!].map((id) => `${lines[explorer.engine.table.line(id) - 1]}\n`).join('');
    expect(readFileSync(out, 'utf8')).toBe(expected);
  });
});
