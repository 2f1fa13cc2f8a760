/**
 * The command line on each trainer's dump and run folder (test/fixtures/trainers): `trend` over
 * each layout (validation dumps apart, and as a run of their own), `report` naming how a file was
 * read, and the messages and exit codes for a folder, a binary file and a file with nothing readable.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { startFakeServer } from '../scoring/scorers/http/fakePoolingServer';
import { qwenTokenizerDir } from '../scoring/inputs/qwenFiles';

const ROOT = join(__dirname, '../../..');
const TRAINERS = join(ROOT, 'test/fixtures/trainers');

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: ROOT });
  return { code, out, err };
}

interface TrendStep { step: number; rollouts: number; groups: number; correct: number; allCorrectGroups: number; allIncorrectGroups: number }
interface TrendRun { files: number; steps: TrendStep[]; problems: { message: string }[]; layout?: string }

async function trend(...argv: string[]): Promise<{ code: number; run: TrendRun; err: string }> {
  const { code, out, err } = await cli(['trend', ...argv, '--json', '--no-cache', '--jobs', '1']);
  return { code, run: (JSON.parse(out) as { runs: TrendRun[] }).runs[0]!, err };
}

const temporary: string[] = [];
const tmp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'prof-lens-trainer-cli-'));
  temporary.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

describe('prof-lens trend over each trainer\'s run layout', () => {
  it('verl rollout_data_dir: {step}.jsonl, grouped by prompt; validation_data_dir is a run of its own', async () => {
    const { code, run } = await trend(join(TRAINERS, 'verl/rollout_data'));
    expect(code).toBe(0);
    expect(run.steps.map((s) => [s.step, s.rollouts, s.groups])).toEqual([[1, 12, 3], [2, 12, 3], [3, 12, 3]]);
    const validation = await trend(join(TRAINERS, 'verl/validation_data'));
    expect(validation.run.steps.map((s) => [s.step, s.rollouts, s.groups])).toEqual([[3, 3, 3]]);
  });

  it('verl v1: groups from the prompt part of the uid, so groups are mixed, not one rollout each', async () => {
    const { code, run } = await trend(join(TRAINERS, 'verl-v1/rollout_data'));
    expect(code).toBe(0);
    expect(run.steps.map((s) => [s.step, s.rollouts, s.groups])).toEqual([[1, 12, 3], [2, 12, 3]]);
    // Step 1's groups: 1 of 4, 3 of 4 and 3 of 4 correct — none all-correct or all-wrong.
    expect(run.steps[0]).toMatchObject({ correct: 7, allCorrectGroups: 0, allIncorrectGroups: 0 });
  });

  it('TRL output_dir: completions/completions_{step:05d}.parquet', async () => {
    const { code, run } = await trend(join(TRAINERS, 'trl/grpo-qwen2.5-gsm8k'));
    expect(code).toBe(0);
    expect(run.layout).toBe('TRL completions');
    expect(run.steps.map((s) => [s.step, s.rollouts, s.groups])).toEqual([[1, 12, 3], [2, 12, 3], [3, 12, 3]]);
  });

  it('NeMo-RL: train_data_step{N} are the steps, val_data_step{N} apart (and a run of their own with --validation)', async () => {
    const { code, run } = await trend(join(TRAINERS, 'nemo-rl/logs/exp_001'));
    expect(code).toBe(0);
    expect(run.steps.map((s) => s.step)).toEqual([1, 2]);
    expect(run.layout).toBe('NeMo-RL logs; 2 validation dumps apart (a run of their own: trend --validation, or Open Training Run on one of them)');
    const validation = await trend(join(TRAINERS, 'nemo-rl/logs/exp_001'), '--validation');
    expect(validation.run.steps.map((s) => [s.step, s.rollouts])).toEqual([[0, 3], [2, 3]]);
  });

  it('prime-rl: rollouts/step_N/train/all/traces.jsonl (not effective), eval apart', async () => {
    const { code, run } = await trend(join(TRAINERS, 'prime-rl/outputs'));
    expect(code).toBe(0);
    expect(run.files).toBe(2);
    expect(run.steps.map((s) => [s.step, s.rollouts, s.groups])).toEqual([[0, 12, 3], [1, 12, 3]]);
    const validation = await trend(join(TRAINERS, 'prime-rl/outputs/rollouts'), '--validation');
    expect(validation.run.steps.map((s) => [s.step, s.rollouts])).toEqual([[1, 3]]);
  });

  it('open-instruct: the shards, their records\' steps, the metadata file left out', async () => {
    const { code, run } = await trend(join(TRAINERS, 'open-instruct/rollouts'), '--tokenizer', qwenTokenizerDir());
    expect(code).toBe(0);
    expect(run.files).toBe(1);
    expect(run.steps.map((s) => [s.step, s.rollouts, s.groups])).toEqual([[1, 12, 3], [2, 12, 3]]);
  });

  it('a run with files but no training step exits 1 and says so', async () => {
    const dir = tmp();
    writeFileSync(join(dir, '1.jsonl'), '{"config": true}\n');
    writeFileSync(join(dir, '2.jsonl'), '');
    const { code, run, err } = await trend(dir);
    expect(code).toBe(1);
    expect(run.steps).toEqual([]);
    expect(err).toMatch(/no training step in its 2 files/);
  });
});

describe('prof-lens report on trainer dumps', () => {
  it('names how the file and its question were read', async () => {
    const { code, out } = await cli(['report', join(TRAINERS, 'verl-v1/rollout_data/1.jsonl')]);
    expect(code).toBe(0);
    expect(out).toContain('read as: verl v1 rollout dump; question read from a chat transcript (ChatML, special tokens stripped)');
    expect(out).toMatch(/rollouts 12 in 3 groups/);
  });

  it('a folder is not a file: it says to use trend (exit 2)', async () => {
    const { code, err } = await cli(['report', join(TRAINERS, 'verl/rollout_data')]);
    expect(code).toBe(2);
    expect(err).toContain('is a folder: report reads one rollout file. A training run\'s folder of step files is read with `prof-lens trend');
    expect(err).not.toContain('EISDIR');
  });

  it('a torch.save .pt gets one message: what it is and how to convert it (exit 2)', async () => {
    const { code, err } = await cli(['report', join(TRAINERS, 'slime/rollout_0.pt')]);
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/is a PyTorch file \(torch\.save; slime.*python -c/);
  });
});

describe('score and filter with no readable line', () => {
  const garbage = (): string => {
    const dir = tmp();
    writeFileSync(join(dir, 'broken.jsonl'), 'not json\n{"no": "response"}\n');
    return dir;
  };

  it('filter exits 1, says so, and writes nothing', async () => {
    const dir = garbage();
    const { code, err } = await cli(['filter', join(dir, 'broken.jsonl'), '-o', join(dir, 'kept.jsonl')]);
    expect(code).toBe(1);
    expect(err).toMatch(/no readable rollout \(2 unreadable lines, see above\); nothing was written/);
    expect(existsSync(join(dir, 'kept.jsonl'))).toBe(false);
  });

  it('score exits 1, says so, and writes no output', async () => {
    const server = await startFakeServer();
    try {
      const dir = garbage();
      const { code, err } = await cli(['score', join(dir, 'broken.jsonl'), '-o', join(dir, 'scored.jsonl'), '--url', server.url, '--no-cache']);
      expect(code).toBe(1);
      expect(err).toMatch(/no readable rollout \(2 unreadable lines, see above\); no step scores written/);
      expect(err).not.toContain('step scores written to');
      expect(existsSync(join(dir, 'scored.jsonl'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('score on a TRL parquet writes every row with its step scores as JSON Lines', async () => {
    const server = await startFakeServer();
    try {
      const dir = tmp();
      const out = join(dir, 'scored.jsonl');
      const { code } = await cli(['score', join(TRAINERS, 'trl/grpo-qwen2.5-gsm8k/completions/completions_00001.parquet'), '-o', out, '--url', server.url, '--no-cache']);
      expect(code).toBe(0);
      const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { completion: string; step_scores: number[]; accuracy_reward: number });
      expect(rows).toHaveLength(12);
      for (const row of rows) expect(row.step_scores.length).toBe(row.completion.split('\n\n').filter((p) => p.trim()).length);
      expect(rows.map((r) => r.accuracy_reward).filter((r) => r === 1)).toHaveLength(5);
    } finally {
      await server.close();
    }
  });

  it('filter on a TRL parquet writes the kept rows as JSON Lines', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'out'));
    const { code, err } = await cli(['filter', join(TRAINERS, 'trl/grpo-qwen2.5-gsm8k/completions/completions_00001.parquet'), '-o', join(dir, 'out/kept.jsonl'), '--scorer', 'checker', '--m', '2']);
    expect(code).toBe(0);
    expect(err).toMatch(/kept 6 of 12 rollouts \(6 lines\)/);
    const kept = readFileSync(join(dir, 'out/kept.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { step: number; prompt: string });
    expect(kept).toHaveLength(6);
    expect(kept.every((r) => r.step === 1 && r.prompt.startsWith('system\n'))).toBe(true);
  });
});
