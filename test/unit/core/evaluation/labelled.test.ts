/**
 * Labelled datasets are read once, by the format adapters; `prof-lens eval`, the tests and the
 * editor all take the first wrong step from the same `stepLabels`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluateFirstError, evaluationItems, firstErrorOf } from '../../../../src/core/evaluation/firstError';
import { analyseText } from '../../../../src/scoring/analysis/analyse';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

async function analyse(path: string, scorer: 'checker' | 'file' = 'checker'): Promise<Awaited<ReturnType<typeof analyseText>>> {
  return analyseText(readFileSync(FIXTURES + path, 'utf8'), { fileName: path, scorer });
}

describe('first errors from step labels', () => {
  it('the first −1, −1 when none is wrong, null without labels', () => {
    expect(firstErrorOf([1, 1, -1, null])).toBe(2);
    expect(firstErrorOf([1, 0, 1])).toBe(-1);
    expect(firstErrorOf(null)).toBeNull();
  });

  it('ProcessBench: `label` is the first wrong step; evaluated end to end with the checker', async () => {
    const a = await analyse('processbench-gsm8k-sample.json');
    expect(a.rollouts.map((r) => firstErrorOf(r.stepLabels))).toEqual([-1, 1, 2, -1, 0]);
    const [report] = evaluateFirstError(evaluationItems(a.rollouts, 'gsm8k'), 0.5).subsets;
    // gsm8k-2 goes wrong by adding instead of halving; its arithmetic is right, so it is missed.
    expect(report).toMatchObject({ errorItems: 3, errorHits: 2, correctItems: 2, correctHits: 2, correctAccuracy: 1 });
    expect(report?.f1).toBeCloseTo(0.8, 12);
  });

  it('PRM800K phase 2: the whole pre-generated solution, its first −1 rating the first error', async () => {
    const a = await analyse('data/prm800k_phase2_train_sample9.jsonl');
    const record = JSON.parse(readFileSync(FIXTURES + 'data/prm800k_phase2_train_sample9.jsonl', 'utf8').split('\n')[0]!) as { question: { pre_generated_steps: string[] } };
    const first = a.rollouts[0]!;
    expect(first.steps.map((s) => s.text)).toEqual(record.question.pre_generated_steps.map((s) => s.trim()));
    expect(firstErrorOf(first.stepLabels)).toBe(6);
  });

  it('PRM800K phase 1: a solution or a give-up followed to its end has no error', async () => {
    const a = await analyse('data/prm800k_phase1_train_sample.jsonl');
    expect(a.rollouts.map((r) => firstErrorOf(r.stepLabels))).toEqual([-1, -1, -1]);
    expect(a.rollouts.map((r) => r.steps.length)).toEqual([6, 29, expect.any(Number)]);
  });

  it('Math-Shepherd: steps end at the tags; the first `-` is the error', async () => {
    const a = await analyse('data/openr_samples_math-shepherd.jsonl');
    expect(a.rollouts.map((r) => firstErrorOf(r.stepLabels))).toEqual([4, 0, 0, 0, 1, 0, 0]);
    expect(a.rollouts[0]!.prompt.startsWith('Janet pays $40/hour')).toBe(true);
  });

  it('GSM8K example solutions carry outcomes, not step labels: not evaluation items', async () => {
    const a = await analyse('data/gsm8k_openai_example_model_solutions_first120.jsonl');
    expect(evaluationItems(a.rollouts, 'gsm8k')).toEqual([]);
    expect(a.rollouts.filter((r) => r.outcome.kind === 'correct')).toHaveLength(182);
  });
});
