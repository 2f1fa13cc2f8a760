/**
 * Trainer dumps that need more than the records: TRL's parquet completions (read with hyparquet),
 * open-instruct's token ids (decoded with the tokenizer the run's metadata names, found in a
 * Hugging Face cache), and binary files (one message, never a line of them read).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { analysePath } from '../../../../src/scoring/analysis/analysePath';
import { adaptContextFor } from '../../../../src/scoring/inputs/traceTokenizer';
import { UnreadableFileError } from '../../../../src/scoring/inputs/inputFile';
import { qwenTokenizerDir } from './qwenFiles';

const TRAINERS = join(__dirname, '../../../fixtures/trainers');
const TRL = join(TRAINERS, 'trl/grpo-qwen2.5-gsm8k/completions');
const OPEN_INSTRUCT = join(TRAINERS, 'open-instruct/rollouts/grpo_qwen_gsm8k__1__1766000000_rollouts_000000.jsonl');
const JANET = 'Janet’s ducks lay 16 eggs per day.';

const temporary: string[] = [];
const tmp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'prof-lens-inputs-'));
  temporary.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

function groupSizes(groups: readonly string[]): number[] {
  const sizes = new Map<string, number>();
  for (const g of groups) sizes.set(g, (sizes.get(g) ?? 0) + 1);
  return [...sizes.values()];
}

describe('TRL completions parquet', () => {
  it('opens with no options: one rollout per row, grouped by prompt, the outcome from accuracy_reward, every reward column kept', async () => {
    const { analysis } = await analysePath(join(TRL, 'completions_00001.parquet'), { scorer: 'checker' });
    expect(analysis.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    expect(analysis.rollouts).toHaveLength(12);
    expect(groupSizes(analysis.rollouts.map((r) => r.group))).toEqual([4, 4, 4]);
    const janet = analysis.rollouts.filter((r) => r.prompt.startsWith(JANET));
    expect(janet).toHaveLength(4);
    expect(janet[0]).toMatchObject({ format: 'trl', gold: '18', outcomeField: 'accuracy_reward' });
    expect(janet[0]!.prompt).not.toMatch(/^system|\nuser\n|assistant\n$/);
    expect(janet[0]!.promptReading).toMatchObject({ kind: 'transcript', template: 'chatml', hasSpecialTokens: false });
    expect(janet.map((r) => r.outcome.kind)).toEqual(['incorrect', 'incorrect', 'incorrect', 'correct']);
    expect(janet[0]!.rewards?.map((f) => f.name)).toEqual(['accuracy_reward', 'format_reward', 'advantage']);
    // The response cut before its answer has no box: format_reward 0.
    expect(janet[1]!.rewards?.find((f) => f.name === 'format_reward')?.value).toBe(0);
    expect(janet[0]!.steps.length).toBeGreaterThan(1);
  });

  it('lets the user name the outcome column (--field outcome=…, the fields mapping)', async () => {
    const { analysis } = await analysePath(join(TRL, 'completions_00001.parquet'), { scorer: 'checker', settings: { fields: { outcome: 'format_reward' } } });
    const janet = analysis.rollouts.filter((r) => r.prompt.startsWith(JANET));
    expect(janet.map((r) => r.outcome.kind)).toEqual(['correct', 'incorrect', 'correct', 'correct']);
    expect(janet[0]!.outcomeField).toBe('format_reward');
    expect(janet[0]!.prompt.startsWith(JANET)).toBe(true);
  });

  it('reads a reward function that returned None (NaN in the table) as an unknown outcome, and says which column to name when none is accuracy-like', async () => {
    const file = join(tmp(), 'completions_00007.parquet');
    const prompt = 'system\nYou are helpful.\nuser\nWhat is 2 + 2?\nassistant\n';
    writeFileSync(file, Buffer.from(parquetWriteBuffer({
      columnData: [
        { name: 'step', data: [7n, 7n], type: 'INT64' },
        { name: 'prompt', data: [prompt, prompt], type: 'STRING' },
        { name: 'completion', data: ['2 + 2 = 4\n\n#### 4', '2 + 2 = 5\n\n#### 5'], type: 'STRING' },
        { name: 'length_penalty', data: [NaN, -0.5], type: 'DOUBLE' },
        { name: 'advantage', data: [0.7, -0.7], type: 'DOUBLE' },
      ],
    })));
    const { analysis } = await analysePath(file, { scorer: 'checker' });
    expect(analysis.rollouts.map((r) => r.outcome.kind)).toEqual(['unknown', 'unknown']);
    expect(analysis.rollouts[0]!.rewards).toEqual([{ name: 'length_penalty', value: null }, { name: 'advantage', value: 0.7 }]);
    const notes = analysis.diagnostics.filter((d) => d.code === 'outcome-column');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message).toMatch(/reward columns are length_penalty.*--field outcome=<column>.*\(and 1 more line alike\)/);
  });
});

/** A Hugging Face hub cache holding the Qwen2.5 tokenizer as `Qwen/Qwen2.5-0.5B-Instruct`'s snapshot. */
function hubCache(): string {
  const hub = join(tmp(), 'hub');
  const snapshot = join(hub, 'models--Qwen--Qwen2.5-0.5B-Instruct', 'snapshots', '7ae557604adf67be50417f59c2c2f167def9a775');
  mkdirSync(snapshot, { recursive: true });
  mkdirSync(join(hub, 'models--Qwen--Qwen2.5-0.5B-Instruct', 'refs'));
  writeFileSync(join(hub, 'models--Qwen--Qwen2.5-0.5B-Instruct', 'refs', 'main'), '7ae557604adf67be50417f59c2c2f167def9a775');
  for (const name of ['tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(qwenTokenizerDir(), name), join(snapshot, name));
  return hub;
}

describe('open-instruct traces', () => {
  it('are decoded with the tokenizer of the model the metadata names, found in the Hugging Face cache', async () => {
    const context = await adaptContextFor(OPEN_INSTRUCT, { env: { HF_HUB_CACHE: hubCache() } });
    expect(context.decoder?.name).toMatch(/^Qwen\/Qwen2\.5-0\.5B-Instruct \(/);
    const { analysis } = await analysePath(OPEN_INSTRUCT, { scorer: 'checker', context });
    expect(analysis.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(analysis.rollouts).toHaveLength(24);
    const janet = analysis.rollouts.filter((r) => r.prompt.startsWith(JANET));
    expect(janet).toHaveLength(4);
    expect(janet[0]).toMatchObject({ format: 'open-instruct', gold: '18', outcomeField: 'reward > 0' });
    expect(janet[0]!.prompt.endsWith('Put your final answer after ####.')).toBe(true);
    expect(janet[0]!.promptReading).toMatchObject({ template: 'chatml', hasSpecialTokens: true });
    // reward 10.0 is correct, 0.0 incorrect: never "non-binary".
    expect(janet.map((r) => r.outcome.kind)).toEqual(['incorrect', 'incorrect', 'incorrect', 'correct']);
    expect(janet[3]!.response.endsWith('#### 18<|im_end|>')).toBe(true);
    expect(janet[3]!.steps.at(-1)!.text).toBe('#### 18');
    // Groups: the step's prompt_idx, four samples each, over two steps.
    expect(groupSizes(analysis.rollouts.map((r) => r.group))).toEqual([4, 4, 4, 4, 4, 4]);
  });

  it('use a tokenizer folder the user names over the cache', async () => {
    const context = await adaptContextFor(OPEN_INSTRUCT, { tokenizerDir: qwenTokenizerDir(), env: {}, home: tmp() });
    expect(context.decoder?.name).toContain(qwenTokenizerDir());
  });

  it('without a tokenizer say exactly what is needed, once for the file', async () => {
    const home = tmp();
    const context = await adaptContextFor(OPEN_INSTRUCT, { env: {}, home });
    expect(context.decoder).toBeUndefined();
    const { analysis } = await analysePath(OPEN_INSTRUCT, { scorer: 'checker', context });
    expect(analysis.rollouts).toHaveLength(0);
    expect(analysis.diagnostics).toHaveLength(1);
    const message = analysis.diagnostics[0]!.message;
    expect(message).toContain('needs the tokenizer of Qwen/Qwen2.5-0.5B-Instruct');
    expect(message).toContain(join(home, '.cache/huggingface/hub/models--Qwen--Qwen2.5-0.5B-Instruct'));
    expect(message).toContain('huggingface-cli download Qwen/Qwen2.5-0.5B-Instruct tokenizer.json tokenizer_config.json');
    expect(message).toContain('--tokenizer <dir>');
    expect(message).toMatch(/\(and 23 more lines alike\)$/);
  });
});

describe('binary files', () => {
  it('a torch.save .pt (slime) is refused with one message saying what it is and how to convert it', async () => {
    const failure = await analysePath(join(TRAINERS, 'slime/rollout_0.pt')).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UnreadableFileError);
    expect((failure as Error).message).toMatch(/rollout_0\.pt is a PyTorch file \(torch\.save; slime saves its rollouts this way.*python -c "import json,sys,torch/);
  });

  it('Arrow, safetensors and NUL-filled files get their own message', async () => {
    const dir = tmp();
    const header = Buffer.from('{"__metadata__":{}}');
    const safetensors = Buffer.concat([Buffer.from([header.length, 0, 0, 0, 0, 0, 0, 0]), header]);
    const cases: [string, Buffer, RegExp][] = [
      ['data.arrow', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x10, 0, 0, 0]), /is an Arrow file .*datasets\.Dataset\.from_file/],
      ['model.safetensors', safetensors, /is a safetensors file/],
      ['dump.jsonl', Buffer.from('\u0000\u0000\u0000{"a": 1}\n'), /is a binary file \(it has NUL bytes/],
    ];
    for (const [name, bytes, message] of cases) {
      writeFileSync(join(dir, name), bytes);
      await expect(analysePath(join(dir, name))).rejects.toThrow(message);
    }
  });

  it('JSON Lines whose NULs come after a whole first line are text with a damaged tail: the good line is read, the NUL line named', async () => {
    const path = join(tmp(), 'crashed.jsonl');
    writeFileSync(path, Buffer.from('{"prompt": "Q", "response": "A", "score": 1}\n\u0000\u0000\u0000'));
    const { analysis } = await analysePath(path, { scorer: 'checker' });
    expect(analysis.report.rollouts).toBe(1);
    expect(analysis.report.unreadableLines).toBe(1);
    expect(analysis.diagnostics.map((d) => d.line)).toContain(2);
  });
});
