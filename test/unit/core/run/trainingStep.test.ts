import { describe, expect, it } from 'vitest';
import { compareRunFiles, stepOfFileName, stepOfRecord } from '../../../../src/core/run/trainingStep';

describe('the training step of a record', () => {
  it('is its step field, else its global_step field', () => {
    expect(stepOfRecord({ input: 'q', output: 'a', step: 40 })).toBe(40);
    expect(stepOfRecord({ global_step: 7 })).toBe(7);
    expect(stepOfRecord({ step: 3, global_step: 9 })).toBe(3);
  });

  it('reads numbers written as strings or as 40.0, and nothing else', () => {
    expect(stepOfRecord({ step: '120' })).toBe(120);
    expect(stepOfRecord({ step: 12.0 })).toBe(12);
    for (const step of [-1, 1.5, 'forty', '', null, true, [3], { n: 3 }]) expect(stepOfRecord({ step }), JSON.stringify(step)).toBeNull();
    // A bad `step` does not hide a good `global_step`.
    expect(stepOfRecord({ step: 'x', global_step: 5 })).toBe(5);
  });

  it('is null for a record that names none (the file name decides then)', () => {
    expect(stepOfRecord({ input: 'q', output: 'a' })).toBeNull();
    expect(stepOfRecord(null)).toBeNull();
    expect(stepOfRecord([1, 2])).toBeNull();
  });
});

describe('the training step in a file name', () => {
  it("is verl's {global_step}.jsonl, or the last number in the name", () => {
    expect(stepOfFileName('40.jsonl')).toBe(40);
    expect(stepOfFileName('/runs/a/rollout_data/000120.jsonl')).toBe(120);
    expect(stepOfFileName('rollouts_step_35.jsonl')).toBe(35);
    expect(stepOfFileName('run3-step40.jsonl')).toBe(40);
    expect(stepOfFileName('C:\\runs\\b\\7.json')).toBe(7);
  });

  it('is a step named in the file name or in one of the three folders above it, before any other number', () => {
    expect(stepOfFileName('/out/rollout_dump/rollout_dump_data.step_12.jsonl')).toBe(12);
    expect(stepOfFileName('/runs/r1/grpo_step_000100/sample_rollouts.jsonl')).toBe(100);
    expect(stepOfFileName('step_12/rollouts.jsonl')).toBe(12);
    expect(stepOfFileName('/runs/global_step_40/samples.jsonl')).toBe(40);
    // SkyRL names the data source, digits and all, inside the step's folder.
    expect(stepOfFileName('/export/dumped_evals/global_step_40_evals/math500.jsonl')).toBe(40);
    expect(stepOfFileName('rollouts/step_3/train/all/traces.jsonl')).toBe(3);
    expect(stepOfFileName('C:\\runs\\grpo_step_000200\\sample_rollouts.jsonl')).toBe(200);
    // A step folder far above the run is not the file's step.
    expect(stepOfFileName('/ckpt/global_step_500/a/b/c/rollouts.jsonl')).toBeNull();
  });

  it("is AReaL's weight-version folder, not the task id that names the file", () => {
    expect(stepOfFileName('/logs/u/exp/trial/rollout/3/17.jsonl')).toBe(3);
    expect(stepOfFileName('/logs/u/exp/trial/eval-rollout/5/2.jsonl')).toBe(5);
    expect(stepOfFileName('/data/3/17.jsonl')).toBe(17);
  });

  it('is null when the name has no number (the extension does not count)', () => {
    expect(stepOfFileName('rollouts.jsonl')).toBeNull();
    expect(stepOfFileName('dump.json')).toBeNull();
  });

  it('orders a run by step, not by name, with unnumbered files last', () => {
    expect(['100.jsonl', 'b.jsonl', '20.jsonl', '3.jsonl', 'a.jsonl'].sort(compareRunFiles)).toEqual(['3.jsonl', '20.jsonl', '100.jsonl', 'a.jsonl', 'b.jsonl']);
  });
});
