import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluateFirstError } from '../../../../src/core/evaluation/firstError';
import {
  fromGsm8kExampleSolutions, fromMathShepherd, fromPrm800k, fromProcessBench, toEvaluationItem,
} from '../../../../src/core/evaluation/labelledSolutions';
import { createCheckerScorer } from '../../../../src/scoring/checker/checkerScorer';

const DATA = fileURLToPath(new URL('../../../../../shared/data/', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../../../fixtures/processbench-gsm8k-sample.json', import.meta.url));

function readJsonl(name: string): unknown[] {
  return readFileSync(DATA + name, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown);
}

describe('ProcessBench records', () => {
  const records = JSON.parse(readFileSync(FIXTURE, 'utf8')) as unknown[];

  it('take steps and the first wrong step from `steps` and `label`', () => {
    const solutions = records.map((r) => fromProcessBench(r, 'gsm8k'));
    expect(solutions.map((s) => s?.firstErrorStep)).toEqual([-1, 1, 2, -1, 0]);
    expect(solutions[1]).toMatchObject({ subset: 'gsm8k', id: 'gsm8k-1', steps: expect.arrayContaining(['The answer is 16.']) });
  });

  it('reject records whose label is not a step index or −1', () => {
    expect(fromProcessBench({ steps: ['a'], label: 1 }, 's')).toBeNull();
    expect(fromProcessBench({ steps: ['a'], label: -2 }, 's')).toBeNull();
    expect(fromProcessBench({ steps: 'a', label: 0 }, 's')).toBeNull();
    expect(fromProcessBench(null, 's')).toBeNull();
  });

  it('evaluate end to end with the checker: 2 of 3 first errors found, both correct solutions passed', async () => {
    const solutions = records.flatMap((r) => fromProcessBench(r, 'gsm8k') ?? []);
    const scored = await createCheckerScorer().score(solutions.map((s, id) => ({ id, prompt: s.problem, steps: s.steps })));
    const items = solutions.flatMap((s, k) => {
      const r = scored[k];
      return r?.kind === 'scored' ? toEvaluationItem(s, r.scores) ?? [] : [];
    });
    const [report] = evaluateFirstError(items, 0.5).subsets;
    // gsm8k-2 goes wrong by adding instead of halving; its arithmetic is right, so it is missed.
    expect(report).toMatchObject({ errorItems: 3, errorHits: 2, correctItems: 2, correctHits: 2, correctAccuracy: 1 });
    expect(report?.f1).toBeCloseTo(0.8, 12);
  });
});

describe.skipIf(!existsSync(DATA))('labelled records from the public datasets', () => {
  it('PRM800K phase 2: chosen steps, then the pre-generated step rated −1 as the first error', () => {
    const [record] = readJsonl('prm800k_phase2_train_sample9.jsonl') as { question: { pre_generated_steps: string[] } }[];
    const s = fromPrm800k(record);
    expect(s?.steps).toHaveLength(7);
    expect(s?.firstErrorStep).toBe(6);
    expect(s?.steps[6]).toBe(record?.question.pre_generated_steps[6]);
  });

  it('PRM800K phase 1: human completions fill unchosen steps; a solution or a give-up has no error', () => {
    const [solved, gaveUp] = readJsonl('prm800k_phase1_train_sample.jsonl').map((r) => fromPrm800k(r));
    expect(solved).toMatchObject({ firstErrorStep: -1 });
    expect(solved?.steps).toHaveLength(6);
    expect(gaveUp).toMatchObject({ firstErrorStep: -1 });
    expect(gaveUp?.steps).toHaveLength(29);
    expect(fromPrm800k({ question: {}, label: {} })).toBeNull();
  });

  it('Math-Shepherd: steps end at the tags, the problem is split off, the first `-` is the error', () => {
    const records = readJsonl('openr_samples_math-shepherd.jsonl');
    const first = fromMathShepherd(records[0]);
    expect(first?.problem.startsWith('Janet pays $40/hour')).toBe(true);
    expect(first?.steps).toHaveLength(5);
    expect(first?.steps[0]).toBe('Step 1: Janet spends 3 hours + 5 hours = <<3+5=8>>8 hours per week on music lessons.');
    expect(first?.firstErrorStep).toBe(4);
    expect(records.map((r) => fromMathShepherd(r)?.firstErrorStep)).toEqual([4, 0, 0, 0, 1, 0, 0]);
    expect(fromMathShepherd({ input: 'a \u043a\u0438', label: 'a ?' })).toBeNull();
  });

  it('GSM8K example solutions: the reference and correct solutions have no error, incorrect ones an unknown one', () => {
    const [record] = readJsonl('gsm8k_openai_example_model_solutions_first120.jsonl');
    const solutions = fromGsm8kExampleSolutions(record);
    expect(solutions.map((s) => [s.id, s.firstErrorStep])).toEqual([
      ['ground_truth', -1],
      ['6b_finetuning', null],
      ['6b_verification', null],
      ['175b_finetuning', null],
      ['175b_verification', -1],
    ]);
    expect(solutions[0]?.steps).toEqual([
      'Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.',
      'She makes 9 * 2 = $<<9*2=18>>18 every day at the farmer\u2019s market.',
      'A: 18',
    ]);
    expect(toEvaluationItem(solutions[1]!, [0.9])).toBeNull();
    expect(toEvaluationItem(solutions[0]!, [0.9, 0.9, 0.7])).toEqual({ subset: 'gsm8k', stepScores: [0.9, 0.9, 0.7], firstErrorStep: -1 });
  });
});
