import { describe, expect, it } from 'vitest';
import { classifyRunFiles, isLayoutFolder, isRunFile, needsRolloutCheck, runFolderOfStepFile } from '../../../../src/core/run/runLayout';

describe('a run folder\'s files, sorted out by their paths', () => {
  it('takes the files in step folders beside the top-level ones, and leaves other folders\' files alone', () => {
    const layout = classifyRunFiles(['metrics.jsonl', 'config.json', 'grpo_step_000100/sample_rollouts.jsonl', 'step_12/rollouts.jsonl', 'logs/debug.jsonl', 'grpo_step_000100/deep/x.jsonl']);
    expect(layout).toEqual({ kind: 'step-files', train: ['metrics.jsonl', 'config.json', 'grpo_step_000100/sample_rollouts.jsonl', 'step_12/rollouts.jsonl'], validation: [] });
  });

  it('reads AReaL\'s version folders (eval-rollout apart) and SkyRL\'s evaluation folders', () => {
    expect(classifyRunFiles(['rollout/1/0.jsonl', 'rollout/2/7.jsonl', 'eval-rollout/2/3.jsonl'])).toEqual({ kind: 'areal', train: ['rollout/1/0.jsonl', 'rollout/2/7.jsonl'], validation: ['eval-rollout/2/3.jsonl'] });
    expect(classifyRunFiles(['1/0.jsonl']).kind).toBe('areal');
    expect(classifyRunFiles(['dumped_evals/global_step_40_evals/openai_gsm8k.jsonl', 'dumped_evals/global_step_40_evals/aggregated_results.jsonl']).train).toHaveLength(2);
    expect(isRunFile('areal', 'rollout/3/21.jsonl')).toBe(true);
    expect(isRunFile('areal', 'eval-rollout/3/21.jsonl', 'validation')).toBe(true);
  });

  it('walks only the folders trainers put steps in', () => {
    for (const name of ['grpo_step_000100', 'step_12', 'global_step_40', 'global_step_40_evals', 'rollout', 'eval-rollout', 'dumped_evals', '3']) expect(isLayoutFolder(name), name).toBe(true);
    for (const name of ['logs', 'checkpoints', 'steps', 'node_modules', 'wandb']) expect(isLayoutFolder(name), name).toBe(false);
  });

  it('checks for rollouts the files that a name does not make steps: .json documents and unnumbered .jsonl', () => {
    for (const name of ['metrics.jsonl', 'sample_rollouts.jsonl', 'aggregated_results.jsonl', 'eval_summary_step_000100.json', 'a/40.json']) expect(needsRolloutCheck(name), name).toBe(true);
    for (const name of ['40.jsonl', 'rollout_dump_data.step_1.jsonl', 'completions_00001.parquet', 'x/train_data_step3.jsonl']) expect(needsRolloutCheck(name), name).toBe(false);
  });

  it('finds the run of a step file opened on its own', () => {
    expect(runFolderOfStepFile('/runs/r1/grpo_step_000100/sample_rollouts.jsonl')).toBe('/runs/r1');
    expect(runFolderOfStepFile('/logs/u/exp/trial0/rollout/2/21.jsonl')).toBe('/logs/u/exp/trial0');
    expect(runFolderOfStepFile('/export/dumped_evals/global_step_40_evals/openai_gsm8k.jsonl')).toBe('/export');
    expect(runFolderOfStepFile('/runs/r1/40.jsonl')).toBeNull();
  });
});
