/**
 * ROLL's column dumps, AReaL's trajectories and SkyRL's evaluation dumps (test/fixtures/trainers,
 * written as their writer code writes them) read with no options: the rollouts, their groups, gold
 * and outcomes, the question out of the template, steps from the assistant's text only (no
 * closing special token in the last step), and a ROLL dump cut column by column when filtered.
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
const JANET = (JSON.parse(readFileSync(join(__dirname, '../../../fixtures/data/gsm8k_openai_example_model_solutions_first120.jsonl'), 'utf8').split('\n')[0]!) as { question: string }).question;

function read(path: string): { rollouts: PreparedRollout[]; diagnostics: Diagnostic[]; raw: string[] } {
  const text = readFileSync(join(TRAINERS, path), 'utf8');
  return { ...prepareText(text, path), raw: text.split('\n') };
}

function groupSizes(rollouts: readonly PreparedRollout[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const r of rollouts) sizes.set(r.rollout.group, (sizes.get(r.rollout.group) ?? 0) + 1);
  return sizes;
}

const correct = (rollouts: readonly PreparedRollout[]): number => rollouts.filter((r) => r.rollout.fileOutcome.kind === 'correct').length;

/** Each step's raw span in the line decodes back to the step's text (the editor marks them there). */
function expectRawSteps(r: PreparedRollout, raw: string[]): void {
  const line = raw[r.rollout.line - 1]!;
  for (const [i, span] of r.rawSteps!.entries()) expect(JSON.parse(`"${line.slice(span.start, span.end)}"`)).toBe(r.steps[i]!.text);
}

describe('ROLL rollout_dump_data.step_{N}.jsonl (one column-oriented object)', () => {
  it('makes a rollout of every row, grouped by the dataset id, with its ground_truth and score', () => {
    const { rollouts, diagnostics, raw } = read('roll/output/rollout_dump/rollout_dump_data.step_1.jsonl');
    expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    expect(rollouts).toHaveLength(12);
    expect([...groupSizes(rollouts)]).toEqual([['id=gsm8k-train-0', 4], ['id=gsm8k-train-1', 4], ['id=gsm8k-train-3', 4]]);
    const janet = rollouts.slice(0, 4);
    expect(janet[0]!.rollout).toMatchObject({ format: 'roll', gold: '18', outcomeField: 'scores', responsePath: ['responses', 0] });
    expect(janet[0]!.rollout.prompt).toBe(`${JANET}\nPlease reason step by step, and put your final answer within \\boxed{}.`);
    expect(janet.map((r) => r.rollout.index)).toEqual([0, 1, 2, 3]);
    expect(correct(rollouts)).toBe(7);
    for (const r of rollouts) expectRawSteps(r, raw);
  });

  it('filtered, keeps the kept rows of every column, and the line stays one ROLL dump', () => {
    const line = readFileSync(join(TRAINERS, 'roll/output/rollout_dump/rollout_dump_data.step_1.jsonl'), 'utf8').trimEnd();
    const kept = keptLineText(line, Array.from({ length: 12 }, (_, index) => ({ index, decision: { kept: index === 1 || index === 6 } })));
    const columns = JSON.parse(kept!) as Record<string, unknown[]>;
    for (const [key, list] of Object.entries(columns)) expect(list, key).toHaveLength(2);
    expect(columns.id).toEqual(['gsm8k-train-0', 'gsm8k-train-1']);
    const again = prepareRecord({ line: 1, raw: kept!, value: columns }, { settings: resolveSettings(), rawOffsets: false, firstId: 0 });
    expect(again.rollouts.map((r) => r.rollout.response)).toEqual([(JSON.parse(line) as { responses: string[] }).responses[1], (JSON.parse(line) as { responses: string[] }).responses[6]]);
  });
});

describe('AReaL rollout/{version}/{task_id}.jsonl', () => {
  it('groups a task\'s samples, reads the question out of the ChatML prompt, has no gold and keeps <|im_end|> out of the steps', () => {
    const { rollouts, raw } = read('areal/logs/root/gsm8k-grpo/trial0/rollout/1/0.jsonl');
    expect(rollouts).toHaveLength(4);
    expect([...groupSizes(rollouts)]).toEqual([['task_id=0', 4]]);
    const first = rollouts[0]!.rollout;
    expect(first).toMatchObject({ format: 'areal', gold: null, outcomeField: 'reward', responsePath: ['completion'] });
    expect(first.prompt).toBe(`${JANET}\nPlease put your final answer within \\boxed{}.`);
    expect(first.promptReading).toMatchObject({ kind: 'transcript', template: 'chatml', hasSpecialTokens: true });
    expect(first.response.endsWith('<|im_end|>')).toBe(true);
    for (const r of rollouts) {
      expect(r.steps.at(-1)!.text).not.toContain('<|im_end|>');
      expectRawSteps(r, raw);
    }
    expect(correct(rollouts)).toBe(1);
  });
});

describe('SkyRL dumped_evals/global_step_{N}_evals/{data_source}.jsonl', () => {
  it('takes the gold from env_extras.reward_spec, the outcome from score, and groups by prompt', () => {
    const { rollouts, raw } = read('skyrl/export/dumped_evals/global_step_40_evals/openai_gsm8k.jsonl');
    expect(rollouts).toHaveLength(12);
    expect([...groupSizes(rollouts).values()]).toEqual([4, 4, 4]);
    const janet = rollouts.slice(0, 4);
    expect(janet[0]!.rollout).toMatchObject({ format: 'skyrl', gold: '18', outcomeField: 'score', responsePath: ['output_response'] });
    expect(janet[0]!.rollout.prompt).toBe(`${JANET} Let's think step by step and output the final answer after "####".`);
    expect(correct(rollouts)).toBe(7);
    for (const r of rollouts) {
      expect(r.steps.at(-1)!.text).toMatch(/#### \d+$/);
      expectRawSteps(r, raw);
    }
  });

  it('adds up per-token rewards into the sample\'s score', () => {
    const line = readFileSync(join(TRAINERS, 'skyrl/export/dumped_evals/global_step_40_evals/openai_gsm8k.jsonl'), 'utf8').split('\n')[0]!;
    const value = { ...(JSON.parse(line) as object), score: [0.0, 0.0, 1.0] };
    const prepared = prepareRecord({ line: 1, raw: JSON.stringify(value), value }, { settings: resolveSettings(), rawOffsets: false, firstId: 0 });
    expect(prepared.rollouts[0]!.rollout.fileOutcome.kind).toBe('correct');
  });
});
