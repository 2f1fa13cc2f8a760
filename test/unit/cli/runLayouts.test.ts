/**
 * `trend` and `report` on the run layouts found by the numbers in their paths
 * (test/fixtures/trainers): a hand-written GRPO loop's step folders beside its metrics, config and
 * evaluation summaries (those named once and left out), the folder above a run (the run inside it
 * opened, and named), and ROLL, AReaL and SkyRL dumps read with no options.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';

const ROOT = join(__dirname, '../../..');
const TRAINERS = join(ROOT, 'test/fixtures/trainers');
const LOOP = join(TRAINERS, 'grpo-loop/runs/qwen2.5-math-1.5b-r1zero');

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: ROOT });
  return { code, out, err };
}

interface TrendRun { files: number; steps: { step: number; rollouts: number; groups: number; correct: number }[]; problems: { message: string }[]; layout?: string }

async function trend(...argv: string[]): Promise<{ code: number; run: TrendRun; err: string; text: string }> {
  const { code, out, err } = await cli(['trend', ...argv, '--json', '--no-cache', '--jobs', '1']);
  const text = await cli(['trend', ...argv, '--no-cache', '--jobs', '1']);
  return { code, run: (JSON.parse(out) as { runs: TrendRun[] }).runs[0]!, err, text: text.out };
}

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

const LEFT_OUT = 'left out 5 files that hold no rollouts: config.json, eval_summary_step_000100.json, eval_summary_step_000200.json, eval_summary_step_000300.json, metrics.jsonl';

describe('a hand-written GRPO loop: grpo_step_{N}/sample_rollouts.jsonl beside metrics and summaries', () => {
  it('reads the step folders as the steps and names the files that hold no rollouts once', async () => {
    const { code, run, err, text } = await trend(LOOP);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(run.files).toBe(3);
    expect(run.steps.map((s) => [s.step, s.rollouts, s.groups])).toEqual([[100, 12, 3], [200, 12, 3], [300, 12, 3]]);
    expect(run.problems).toEqual([]);
    expect(run.layout).toBe(LEFT_OUT);
    expect(text.split('\n').filter((l) => l.includes('metrics.jsonl'))).toEqual([`  read as: ${LEFT_OUT}`]);
  });

  it('given the folder above the run, reads the run inside it and says which', async () => {
    const { code, run } = await trend(join(TRAINERS, 'grpo-loop/runs'));
    expect(code).toBe(0);
    expect(run.steps.map((s) => s.step)).toEqual([100, 200, 300]);
    expect(run.layout).toBe(`the run in qwen2.5-math-1.5b-r1zero/; ${LEFT_OUT}`);
  });

  it('of several runs inside the folder, reads the one written last and names the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prof-lens-runs-'));
    temporary.push(dir);
    for (const [name, time] of [['older', 1_000_000], ['newer', 2_000_000], ['notes', 3_000_000]] as const) {
      mkdirSync(join(dir, name, 'step_7'), { recursive: true });
      if (name !== 'notes') writeFileSync(join(dir, name, 'step_7', 'rollouts.jsonl'), readFileSync(join(LOOP, 'grpo_step_000100/sample_rollouts.jsonl')));
      else writeFileSync(join(dir, name, 'step_7', 'todo.jsonl'), '{"todo": "compare runs"}\n');
      const { utimesSync } = await import('node:fs');
      utimesSync(join(dir, name), time, time);
    }
    const { code, run } = await trend(dir);
    expect(code).toBe(0);
    expect(run.steps.map((s) => [s.step, s.rollouts])).toEqual([[7, 12]]);
    expect(run.layout).toBe('the run in newer/, the one written last; also here: older');
  });

  it('a folder with no run in it or inside it still says what was looked for, with the files left out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prof-lens-runs-'));
    temporary.push(dir);
    writeFileSync(join(dir, 'metrics.jsonl'), '{"step": 1, "loss": 0.5}\n');
    const { code, run } = await trend(dir);
    expect(code).toBe(1);
    expect(run.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^holds no step files: .*grpo_step_000100\/.*; left out 1 file that holds no rollouts: metrics\.jsonl$/)]);
  });
});

describe('ROLL, AReaL and SkyRL runs with no options', () => {
  it('ROLL: rollout_dump_data.step_{N}.jsonl, every row a rollout', async () => {
    const { code, run } = await trend(join(TRAINERS, 'roll/output/rollout_dump'));
    expect(code).toBe(0);
    expect(run.steps.map((s) => [s.step, s.rollouts, s.groups, s.correct])).toEqual([[1, 12, 3, 7], [2, 12, 3, 7]]);
  });

  it('AReaL: the version folders are the steps, a task file is a group (from the trial folder or from rollout/)', async () => {
    for (const path of ['areal/logs/root/gsm8k-grpo/trial0', 'areal/logs/root/gsm8k-grpo/trial0/rollout']) {
      const { code, run } = await trend(join(TRAINERS, path));
      expect(code, path).toBe(0);
      expect(run.files).toBe(6);
      expect(run.steps.map((s) => [s.step, s.rollouts, s.groups])).toEqual([[1, 12, 3], [2, 12, 3]]);
    }
  });

  it('SkyRL: the global_step_N_evals folders are the steps, aggregated_results.jsonl left out', async () => {
    const { code, run } = await trend(join(TRAINERS, 'skyrl/export'));
    expect(code).toBe(0);
    expect(run.steps.map((s) => [s.step, s.rollouts, s.groups, s.correct])).toEqual([[0, 12, 3, 6], [40, 12, 3, 7]]);
    expect(run.layout).toBe('SkyRL evaluation dumps; left out 2 files that hold no rollouts: dumped_evals/global_step_0_evals/aggregated_results.jsonl, dumped_evals/global_step_40_evals/aggregated_results.jsonl');
  });

  it('report names each format', async () => {
    for (const [file, name] of [
      ['roll/output/rollout_dump/rollout_dump_data.step_2.jsonl', 'ROLL rollout dump'],
      ['areal/logs/root/gsm8k-grpo/trial0/rollout/2/21.jsonl', 'AReaL trajectories'],
      ['skyrl/export/dumped_evals/global_step_0_evals/openai_gsm8k.jsonl', 'SkyRL evaluation dump'],
    ] as const) {
      const { code, out } = await cli(['report', join(TRAINERS, file)]);
      expect(code, file).toBe(0);
      expect(out).toContain(`read as: ${name}`);
    }
  });
});
