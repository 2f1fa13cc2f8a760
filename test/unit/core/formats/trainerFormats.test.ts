/**
 * Each trainer's dump (test/fixtures/trainers, written as its writer code writes them) read with
 * no options: the right rollouts, groups, outcomes, the clean question, and steps from the
 * assistant's text only. TRL's parquet and open-instruct's token ids need the scoring layer
 * (test/unit/scoring/inputs/).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareRecord, type PreparedRollout } from '../../../../src/core/formats/prepareRollout';
import { prepareText } from './prepareText';
import { resolveSettings } from '../../../../src/core/profSettings';
import type { Diagnostic } from '../../../../src/core/model';
import { keptLineText } from '../../../../src/core/lines/keptLines';

const TRAINERS = join(__dirname, '../../../fixtures/trainers');
const GSM8K = JSON.parse(readFileSync(join(__dirname, '../../../fixtures/data/gsm8k_openai_example_model_solutions_first120.jsonl'), 'utf8').split('\n')[0]!) as { question: string };

function read(path: string): { rollouts: PreparedRollout[]; diagnostics: Diagnostic[] } {
  const text = readFileSync(join(TRAINERS, path), 'utf8');
  return prepareText(text, path);
}

function groupSizes(rollouts: readonly PreparedRollout[]): number[] {
  const sizes = new Map<string, number>();
  for (const r of rollouts) sizes.set(r.rollout.group, (sizes.get(r.rollout.group) ?? 0) + 1);
  return [...sizes.values()];
}

function outcomes(rollouts: readonly PreparedRollout[]): string[] {
  return rollouts.map((r) => r.rollout.fileOutcome.kind);
}

describe('verl legacy rollout_data_dir', () => {
  it('groups the shuffled rows by prompt, reads the question out of the stripped chat and keeps the extra reward keys', () => {
    const { rollouts, diagnostics } = read('verl/rollout_data/1.jsonl');
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(rollouts).toHaveLength(12);
    expect(groupSizes(rollouts)).toEqual([4, 4, 4]);
    expect(new Set(rollouts.map((r) => r.rollout.format))).toEqual(new Set(['verl']));
    const janet = rollouts.find((r) => r.rollout.gold === '18')!.rollout;
    expect(janet.prompt).toBe(`${GSM8K.question} Let's think step by step and output the final answer after "####".`);
    expect(janet.promptReading).toMatchObject({ kind: 'transcript', template: 'chatml', hasSpecialTokens: false, system: 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' });
    expect(janet.rewards?.map((f) => f.name)).toEqual(['score', 'acc']);
    expect(janet.outcomeField).toBe('acc');
    expect(outcomes(rollouts.filter((r) => r.rollout.gold === '18')).sort()).toEqual(['correct', 'incorrect', 'incorrect', 'incorrect']);
  });

  it('splits a tool rollout into steps from the assistant text only, offsets still in the raw line', () => {
    const { rollouts } = read('verl/rollout_data/3.jsonl');
    const tool = rollouts.filter((r) => r.rollout.responseTurns !== null && r.rollout.responseTurns !== undefined);
    expect(tool).toHaveLength(4);
    for (const r of tool) {
      expect(r.rollout.prompt).toMatch(/ Let's think step by step and output the final answer after `####`\.$/);
      expect(r.rollout.prompt).not.toMatch(/calc_gsm8k_reward|^system|\nuser\n/);
      expect(r.rollout.promptReading?.system).toMatch(/^You are a math expert/);
      expect(r.steps.some((s) => s.text.includes('<tool_response>') || s.text.includes('<tool_call>'))).toBe(false);
      expect(r.steps.at(-1)!.text).toMatch(/#### \d+$/);
      // Each step's raw span decodes back to its text.
      const raw = readFileSync(join(TRAINERS, 'verl/rollout_data/3.jsonl'), 'utf8').split('\n')[r.rollout.line - 1]!;
      const last = r.rawSteps!.at(-1)!;
      expect(JSON.parse(`"${raw.slice(last.start, last.end)}"`)).toBe(r.steps.at(-1)!.text);
    }
  });
});

describe('verl v1 rollout_data_dir', () => {
  it('groups by the prompt part of the uid ({uuid}_{session}_{index}), not by the whole uid', () => {
    const { rollouts } = read('verl-v1/rollout_data/1.jsonl');
    expect(rollouts).toHaveLength(12);
    expect(new Set(rollouts.map((r) => r.rollout.format))).toEqual(new Set(['verl-v1']));
    expect(groupSizes(rollouts)).toEqual([4, 4, 4]);
    expect(rollouts[0]!.rollout.group).toMatch(/^uid=[0-9a-f-]{36}$/);
    expect(rollouts.every((r) => !r.rollout.prompt.includes('\nuser\n'))).toBe(true);
    expect(rollouts.every((r) => r.rollout.fileOutcome.source === 'file')).toBe(true);
  });
});

describe('NeMo-RL logs', () => {
  it('reads train_data_step: the prompt with its literal ChatML tokens, the response, the reward', () => {
    const { rollouts, diagnostics } = read('nemo-rl/logs/exp_001/train_data_step1.jsonl');
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(rollouts).toHaveLength(12);
    expect(groupSizes(rollouts)).toEqual([4, 4, 4]);
    const first = rollouts[0]!.rollout;
    expect(first.format).toBe('nemo-rl');
    expect(first.prompt).toBe(`Think step-by-step to solve the following problem. Output your answer inside of \\\\boxed{} tags.:\n${GSM8K.question}\n\nLet's think step-by-step`);
    expect(first.promptReading).toMatchObject({ template: 'chatml', hasSpecialTokens: true });
    expect(first.response).not.toContain('Environment:');
    expect(first.gold).toBeNull();
    expect(outcomes(rollouts.slice(0, 4))).toEqual(['incorrect', 'incorrect', 'incorrect', 'correct']);
    expect(first.responsePath).toEqual(['content', 0, 1]);
  });

  it('reads val_data_step messages with their roles', () => {
    const { rollouts } = read('nemo-rl/logs/exp_001/val_data_step0.jsonl');
    expect(rollouts).toHaveLength(3);
    expect(rollouts[0]!.rollout.prompt).toContain(GSM8K.question);
    expect(rollouts[0]!.rollout.response).toMatch(/boxed\{/);
  });
});

describe('prime-rl episodes', () => {
  it('makes one rollout per trace, groups by group.id and takes the gold from the task', () => {
    const { rollouts } = read('prime-rl/outputs/rollouts/step_0/train/all/traces.jsonl');
    expect(rollouts).toHaveLength(12);
    expect(groupSizes(rollouts).sort()).toEqual([4, 4, 4]);
    const janet = rollouts.filter((r) => r.rollout.gold === '18');
    expect(janet).toHaveLength(4);
    expect(janet[0]!.rollout.format).toBe('prime-rl');
    expect(janet[0]!.rollout.prompt).toContain(GSM8K.question);
    expect(janet[0]!.rollout.outcomeField).toBe('rewards.correct');
    expect(outcomes(janet).filter((k) => k === 'correct')).toHaveLength(1);
    expect(janet[0]!.rollout.responsePath).toEqual(['traces', 0, 'nodes', 1, 'message', 'content']);
  });

  it('an episode of several traces is trimmed to its kept traces when filtered, and step scores written for it are read back per trace', () => {
    const line = readFileSync(join(TRAINERS, 'prime-rl/outputs/rollouts/step_0/train/all/traces.jsonl'), 'utf8').split('\n')[0]!;
    const episode = JSON.parse(line) as { traces: unknown[] };
    const trace = JSON.stringify(episode.traces[0]);
    // Three traces of one episode, as prime-rl writes a group's traces together; the bytes between them kept as written.
    const raw = line.replace(trace, [trace, trace, trace].join(',  '));
    const kept = keptLineText(raw, [0, 1, 2].map((index) => ({ index, decision: { kept: index !== 1 } })));
    expect((JSON.parse(kept!) as { traces: unknown[] }).traces).toHaveLength(2);
    expect(kept).toBe(line.replace(trace, [trace, trace].join(',  ')));
    const scored = { ...(JSON.parse(raw) as object), step_scores: [[0.9], [0.2, 0.3], [0.5]] };
    const prepared = prepareRecord({ line: 1, raw: JSON.stringify(scored), value: scored }, { settings: resolveSettings(), rawOffsets: false, firstId: 0 });
    expect(prepared.rollouts.map((r) => r.rollout.fileStepScores)).toEqual([[0.9], [0.2, 0.3], [0.5]]);
  });
});

describe('open-instruct traces without a tokenizer', () => {
  it('say what is needed once per line, and read the run metadata as no rollouts', () => {
    const { rollouts, diagnostics } = read('open-instruct/rollouts/grpo_qwen_gsm8k__1__1766000000_rollouts_000000.jsonl');
    expect(rollouts).toHaveLength(0);
    expect(new Set(diagnostics.map((d) => d.code))).toEqual(new Set(['needs-tokenizer']));
    const metadata = read('open-instruct/rollouts/grpo_qwen_gsm8k__1__1766000000_metadata.jsonl');
    expect(metadata.rollouts).toHaveLength(0);
    expect(metadata.diagnostics.map((d) => [d.code, d.severity])).toEqual([['run-metadata', 'warning']]);
    expect(metadata.diagnostics[0]!.message).toMatch(/Qwen\/Qwen2\.5-0\.5B-Instruct/);
  });
});

describe('slime samples converted from .pt', () => {
  it('reads label as the gold and group_index as the group', () => {
    const { rollouts } = read('slime/rollout_0.jsonl');
    expect(rollouts).toHaveLength(8);
    expect(groupSizes(rollouts)).toEqual([4, 4]);
    expect(rollouts[0]!.rollout).toMatchObject({ format: 'slime', gold: '18', prompt: GSM8K.question });
  });
});
