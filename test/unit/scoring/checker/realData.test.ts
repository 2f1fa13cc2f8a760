/**
 * The checker on real, human-labelled solutions from ../shared/data. The bounds are the figures
 * measured when the checker was written (see docs/checker-quality.md): a false alarm on a correct
 * solution or a lost catch fails the test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCheckerScorer } from '../../../../src/scoring/checker/checkerScorer';
import { evaluateFirstError, type EvaluationItem } from '../../../../src/core/evaluation/firstError';
import {
  fromGsm8kExampleSolutions, fromMathShepherd, fromPrm800k, toEvaluationItem, type LabelledSolution,
} from '../../../../src/core/evaluation/labelledSolutions';

const DATA = fileURLToPath(new URL('../../../../../shared/data/', import.meta.url));
const PRM800K_FILES = ['prm800k_phase2_train_sample9.jsonl', 'prm800k_phase1_train_sample.jsonl', 'openr_samples_prm800k.jsonl'];

function readJsonl(name: string): unknown[] {
  return readFileSync(DATA + name, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown);
}

const THRESHOLD = 0.5;

interface Scored {
  solution: LabelledSolution;
  scores: (number | null)[];
  firstFlagged: number;
}

async function score(solutions: LabelledSolution[]): Promise<Scored[]> {
  const results = await createCheckerScorer().score(solutions.map((s, id) => ({ id, prompt: s.problem, steps: s.steps })));
  return results.map((r, k) => {
    const scores = r.kind === 'scored' ? r.scores : [];
    return { solution: solutions[k] as LabelledSolution, scores, firstFlagged: scores.findIndex((s) => s !== null && s < THRESHOLD) };
  });
}

function falseAlarms(scored: Scored[]): { correct: number; flagged: number } {
  const correct = scored.filter((s) => s.solution.firstErrorStep === -1);
  return { correct: correct.length, flagged: correct.filter((s) => s.firstFlagged >= 0).length };
}

function items(scored: Scored[]): EvaluationItem[] {
  return scored.flatMap((s) => toEvaluationItem(s.solution, s.scores) ?? []);
}

function prm800kSolutions(): LabelledSolution[] {
  const seen = new Set<string>();
  return PRM800K_FILES.flatMap(readJsonl).flatMap((record) => {
    const s = fromPrm800k(record);
    if (!s || seen.has(s.id)) return [];
    seen.add(s.id);
    return [s];
  });
}

interface Completion {
  text: string;
  rating: number | null;
}

/**
 * Every rated PRM800K completion and every labeller-written one as a one-step solution: −1
 * ratings are errors; ratings 0 and 1 and the labellers' own steps are not.
 */
function prm800kCompletions(): LabelledSolution[] {
  const out: LabelledSolution[] = [];
  for (const record of PRM800K_FILES.flatMap(readJsonl)) {
    const steps = (record as { label: { steps: { completions: Completion[] | null; human_completion: Completion | null }[] } }).label.steps;
    for (const step of steps) {
      for (const c of step.completions ?? []) {
        if (c.rating !== null) out.push({ subset: 'prm800k-step', id: '', problem: '', steps: [c.text], firstErrorStep: c.rating === -1 ? 0 : -1 });
      }
      if (step.human_completion) out.push({ subset: 'prm800k-step', id: '', problem: '', steps: [step.human_completion.text], firstErrorStep: -1 });
    }
  }
  return out;
}

describe.skipIf(!existsSync(DATA))('checker on real labelled solutions', () => {
  it('GSM8K: no false alarm on 302 correct solutions; flags 13 of 298 incorrect ones', async () => {
    const scored = await score(readJsonl('gsm8k_openai_example_model_solutions_first120.jsonl').flatMap((r) => fromGsm8kExampleSolutions(r)));
    expect(falseAlarms(scored)).toEqual({ correct: 302, flagged: 0 });
    const wrong = scored.filter((s) => s.solution.firstErrorStep === null);
    expect(wrong).toHaveLength(298);
    expect(wrong.filter((s) => s.firstFlagged >= 0).length).toBeGreaterThanOrEqual(13);
  });

  it('PRM800K: no false alarm on correct trajectories or on 240 steps rated 0, 1 or written by labellers', async () => {
    const scored = await score(prm800kSolutions());
    expect(falseAlarms(scored)).toEqual({ correct: 7, flagged: 0 });
    const [report] = evaluateFirstError(items(scored), THRESHOLD).subsets;
    // The nine first errors are all reasoning or algebra, none explicit arithmetic.
    expect(report).toMatchObject({ errorItems: 9, errorHits: 0, correctItems: 7, correctHits: 7 });
    const steps = await score(prm800kCompletions());
    expect(falseAlarms(steps)).toEqual({ correct: 240, flagged: 0 });
    const rejected = steps.filter((s) => s.solution.firstErrorStep === 0);
    expect(rejected).toHaveLength(103);
    expect(rejected.filter((s) => s.firstFlagged === 0)).toHaveLength(0);
  });

  it('Math-Shepherd: finds the exact first error in 3 of 7 flawed solutions, never flags a + step', async () => {
    const solutions = readJsonl('openr_samples_math-shepherd.jsonl').flatMap((r, k) => fromMathShepherd(r, 'math-shepherd', String(k)) ?? []);
    const scored = await score(solutions);
    const [report] = evaluateFirstError(items(scored), THRESHOLD).subsets;
    expect(report?.errorItems).toBe(7);
    expect(report?.errorHits).toBeGreaterThanOrEqual(3);
    expect(report?.errorFlagged).toBeGreaterThanOrEqual(4);
    const plusSteps = scored.flatMap((s) => s.scores.slice(0, s.solution.firstErrorStep === -1 ? undefined : (s.solution.firstErrorStep ?? 0)));
    expect(plusSteps).toHaveLength(5);
    expect(plusSteps.filter((x) => x !== null && x < THRESHOLD)).toEqual([]);
  });
});
