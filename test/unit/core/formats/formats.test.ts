import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readText } from '../../../../src/core/read/reader';
import { prepareRecord, type PreparedRollout } from '../../../../src/core/formats/prepareRollout';
import { resolveSettings } from '../../../../src/core/profSettings';
import type { SourceRecord } from '../../../../src/core/model';

const DATA = join(__dirname, '../../../fixtures/data');
const settings = resolveSettings();

function prepare(text: string, fileName = 'x.jsonl', s = settings): { rollouts: PreparedRollout[]; diagnostics: string[] } {
  const read = readText(text, fileName);
  const rollouts: PreparedRollout[] = [];
  const diagnostics = read.diagnostics.map((d) => d.code);
  for (const record of read.records) {
    const result = prepareRecord(record, { settings: s, rawOffsets: true, firstId: rollouts.length });
    rollouts.push(...result.rollouts);
    diagnostics.push(...result.diagnostics.map((d) => d.code));
  }
  return { rollouts, diagnostics };
}

const data = (name: string): string => readFileSync(join(DATA, name), 'utf8');

describe('real files from test/fixtures/data', () => {
  it('PRM800K phase 2: the whole pre-generated solution, rated up to the first −1 step', () => {
    const { rollouts } = prepare(data('prm800k_phase2_train_sample9.jsonl'));
    expect(rollouts.length).toBe(9);
    for (const { rollout, steps } of rollouts) {
      expect(rollout.format).toBe('prm800k');
      expect(steps.length).toBe(rollout.explicitSteps!.length);
      const labels = rollout.stepLabels!;
      const firstError = labels.indexOf(-1);
      expect(rollout.firstErrorStep).toBe(firstError);
      expect(firstError).toBeGreaterThanOrEqual(0);
      expect(labels.slice(firstError + 1).every((l) => l === null)).toBe(true);
      expect(steps.at(-1)!.text).toMatch(/# Answer/);
    }
    const six = rollouts.slice(2, 8).map((r) => r.rollout);
    expect(new Set(six.map((r) => r.group)).size).toBe(1);
    expect(six[0]!.gold).toBe('504');
  });

  it('PRM800K phase 1 and openr samples: long trajectories and a record with no gold', () => {
    const phase1 = prepare(data('prm800k_phase1_train_sample.jsonl')).rollouts;
    expect(phase1.length).toBe(3);
    // The give-up record: 29 followed steps, the 30th has alternatives but no choice.
    expect(phase1.map((r) => r.steps.length)).toEqual([6, 29, 6]);
    const openr = prepare(data('openr_samples_prm800k.jsonl')).rollouts;
    expect(openr.length).toBe(6);
    expect(openr.some((r) => r.rollout.gold === null)).toBe(true);
  });

  it('Math-Shepherd: the question is the prompt, steps split at ки, labels from +/-', () => {
    const { rollouts } = prepare(data('openr_samples_math-shepherd.jsonl'));
    expect(rollouts.length).toBe(7);
    for (const { rollout, steps, rawSteps } of rollouts) {
      expect(rollout.format).toBe('math-shepherd');
      expect(steps.length).toBe(rollout.stepLabels!.length);
      expect(rollout.prompt.length).toBeGreaterThan(10);
      expect(steps[0]!.text).toMatch(/^Step 1:/);
      expect(steps.every((s) => !s.text.includes('ки'))).toBe(true);
      expect(rollout.fileOutcome.kind === 'correct').toBe(rollout.stepLabels!.at(-1) === 1);
      // The raw offsets point at each step inside the `input` string of the original line.
      const raw = readTextLine(rollout.line);
      rawSteps!.forEach((span, i) => expect(JSON.parse(`"${raw.slice(span.start, span.end)}"`)).toBe(steps[i]!.text));
    }
  });

  it('GSM8K example solutions: four solvers per problem, outcome from is_correct, gold from "A:"', () => {
    const { rollouts } = prepare(data('gsm8k_openai_example_model_solutions_first120.jsonl'));
    expect(rollouts.length).toBe(480);
    const first = rollouts.slice(0, 4).map((r) => r.rollout);
    expect(first.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(first[0]!.gold).toBe('18');
    expect(first[0]!.fileOutcome.kind).toBe('incorrect');
    expect(new Set(first.map((r) => r.group)).size).toBe(1);
    expect(rollouts[0]!.steps.length).toBeGreaterThan(1);
  });
});

function readTextLine(line: number): string {
  return data('openr_samples_math-shepherd.jsonl').split('\n')[line - 1]!;
}

describe('formats without a real sample', () => {
  it('verl dump without uid: grouped by input, outcome from score', () => {
    const lines = [
      { input: 'Q1', output: 'a\n\nb', gts: '3', score: 1.0, step: 10, acc_reward: 1 },
      { input: 'Q1', output: 'c', gts: '3', score: 0.0, step: 10 },
      { input: 'Q2', output: 'd', gts: '4', score: -1, step: 10 },
    ];
    const { rollouts } = prepare(lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(rollouts.map((r) => r.rollout.format)).toEqual(['verl', 'verl', 'verl']);
    expect(rollouts[0]!.rollout.group).toBe(rollouts[1]!.rollout.group);
    expect(rollouts[0]!.rollout.group).not.toBe(rollouts[2]!.rollout.group);
    expect(rollouts.map((r) => r.rollout.fileOutcome.kind)).toEqual(['correct', 'incorrect', 'incorrect']);
  });

  it('generic flat rollouts: uid groups, string numbers, non-binary rewards, step scores', () => {
    const lines = [
      { uid: 'u1', question: 'Q', completion: 'x\n\ny', ground_truth: '1', reward: '1', step_scores: ['0.5', 0.25] },
      { uid: 'u1', question: 'Q (other wording)', completion: 'z', ground_truth: '1', reward: 0.5, prm_scores: [0.9] },
    ];
    const { rollouts } = prepare(lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(rollouts[0]!.rollout.group).toBe('uid=u1');
    expect(rollouts[1]!.rollout.group).toBe('uid=u1');
    expect(rollouts[0]!.rollout.fileStepScores).toEqual([0.5, 0.25]);
    expect(rollouts[1]!.rollout.fileOutcome.kind).toBe('non-binary');
  });

  it('chat messages: the last user turn is the question (the system prompt kept apart), the last assistant turn the response (with raw offsets)', () => {
    const line = JSON.stringify({ messages: [{ role: 'system', content: 'S' }, { role: 'user', content: 'U?' }, { role: 'assistant', content: 'A1\n\n"A2"' }], answer: '2', correct: false });
    const { rollouts } = prepare(line);
    const r = rollouts[0]!;
    expect(r.rollout).toMatchObject({ format: 'chat', prompt: 'U?', response: 'A1\n\n"A2"', gold: '2' });
    expect(r.rollout.promptReading).toMatchObject({ kind: 'messages', system: 'S' });
    // The group is still every user and system turn together.
    expect(r.rollout.group).toBe('S\n\nU?\u00002');
    expect(JSON.parse(`"${line.slice(r.rawSteps![1]!.start, r.rawSteps![1]!.end)}"`)).toBe('"A2"');
  });

  it('grouped lines: parallel responses/score/step_scores arrays; a length mismatch is reported', () => {
    const line = JSON.stringify({ problem: 'P', responses: ['a', 'b\n\nc', 'd'], score: [1, 0], step_scores: [[0.1], [0.2, 0.3], [0.4]], answer: '7' });
    const { rollouts, diagnostics } = prepare(line);
    expect(rollouts.map((r) => [r.rollout.index, r.rollout.fileOutcome.kind])).toEqual([
      [0, 'correct'],
      [1, 'incorrect'],
      [2, 'unknown'],
    ]);
    expect(rollouts[1]!.rollout.fileStepScores).toEqual([0.2, 0.3]);
    expect(diagnostics).toContain('array-length-mismatch');
  });

  it('ProcessBench JSON arrays: steps, first-error label, final answer correctness', () => {
    const doc = JSON.stringify([{ id: 'gsm8k-0', generator: 'g', problem: 'P', steps: ['s1', 's2', 's3'], final_answer_correct: true, label: 1 }], null, 2);
    const { rollouts } = prepare(doc, 'processbench.json');
    expect(rollouts[0]!.rollout).toMatchObject({ format: 'processbench', firstErrorStep: 1, stepLabels: [1, -1, null] });
    expect(rollouts[0]!.steps.map((s) => s.text)).toEqual(['s1', 's2', 's3']);
  });

  it('a field mapping reads roles from nested paths', () => {
    const line = JSON.stringify({ meta: { q: 'Q', id: 9 }, gen: { text: 'a\n\nb', ok: true, prm: [0.3, 0.7] } });
    const s = resolveSettings({ fields: { prompt: 'meta.q', response: 'gen.text', outcome: 'gen.ok', stepScores: 'gen.prm', group: 'meta.id' } });
    const { rollouts } = prepare(line, 'x.jsonl', s);
    expect(rollouts[0]!.rollout).toMatchObject({ format: 'mapped', prompt: 'Q', group: 'group=9', fileStepScores: [0.3, 0.7] });
    expect(rollouts[0]!.rollout.fileOutcome.kind).toBe('correct');
    expect(rollouts[0]!.rawSteps!.length).toBe(2);
  });

  it('a record with no response says which keys it expected and which it found', () => {
    const read = readText(JSON.stringify({ foo: 1, bar: 'x' }));
    const result = prepareRecord(read.records[0] as SourceRecord, { settings, rawOffsets: false, firstId: 0 });
    expect(result.diagnostics[0]!.message).toMatch(/no response found: expected one of .*response.*keys present: foo, bar/);
  });

  it('step-count mismatch between file scores and the split is reported', () => {
    const { diagnostics } = prepare(JSON.stringify({ prompt: 'p', response: 'a\n\nb\n\nc', step_scores: [0.5, 0.5] }));
    expect(diagnostics).toContain('step-count-mismatch');
  });
});
