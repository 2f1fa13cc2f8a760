/**
 * The checker on real, human-labelled solutions (test/fixtures/data), read by the same format
 * adapters `prof-lens eval` and `report` use. The bounds are the figures in docs/checker-quality.md:
 * a false alarm on a correct solution or a lost catch fails the test.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AnalysedRollout } from '../../../../../src/core/report/fileAnalysis';
import { evaluateFirstError, evaluationItems, firstErrorOf } from '../../../../../src/core/evaluation/firstError';
import { analyseText } from '../../../../../src/scoring/analysis/analyse';

const DATA = fileURLToPath(new URL('../../../../fixtures/data/', import.meta.url));
const PRM800K_FILES = ['prm800k_phase2_train_sample9.jsonl', 'prm800k_phase1_train_sample.jsonl', 'openr_samples_prm800k.jsonl'];

async function checked(name: string): Promise<AnalysedRollout[]> {
  return (await analyseText(readFileSync(DATA + name, 'utf8'), { fileName: name, scorer: 'checker' })).rollouts;
}

/** Steps by their human label: rated 0 or +1 (fine) or −1 (wrong), and how many of each the checker marks low. */
function stepsByLabel(rollouts: readonly AnalysedRollout[]): { fine: number; fineLow: number; wrong: number; wrongLow: number } {
  const counts = { fine: 0, fineLow: 0, wrong: 0, wrongLow: 0 };
  for (const r of rollouts) {
    (r.stepLabels ?? []).forEach((label, step) => {
      const isLow = r.lowSteps.includes(step);
      if (label === 0 || label === 1) {
        counts.fine++;
        if (isLow) counts.fineLow++;
      } else if (label === -1) {
        counts.wrong++;
        if (isLow) counts.wrongLow++;
      }
    });
  }
  return counts;
}

describe('checker on real labelled solutions', () => {
  it('GSM8K: no false alarm on 182 correct model solutions; flags 13 of 298 incorrect ones', async () => {
    const rollouts = await checked('gsm8k_openai_example_model_solutions_first120.jsonl');
    const correct = rollouts.filter((r) => r.outcome.kind === 'correct');
    const incorrect = rollouts.filter((r) => r.outcome.kind === 'incorrect');
    expect([correct.length, correct.filter((r) => r.lowSteps.length > 0).length]).toEqual([182, 0]);
    expect(incorrect).toHaveLength(298);
    expect(incorrect.filter((r) => r.lowSteps.length > 0).length).toBeGreaterThanOrEqual(13);
  });

  it('PRM800K: no false alarm on 8 clean trajectories or 137 steps rated 0 or +1; the 10 first errors are not arithmetic', async () => {
    const rollouts = (await Promise.all(PRM800K_FILES.map(checked))).flat();
    const clean = rollouts.filter((r) => firstErrorOf(r.stepLabels) === -1);
    expect([clean.length, clean.filter((r) => r.lowSteps.length > 0).length]).toEqual([8, 0]);
    expect(stepsByLabel(rollouts)).toEqual({ fine: 137, fineLow: 0, wrong: 10, wrongLow: 0 });
    const [report] = evaluateFirstError(evaluationItems(rollouts, 'prm800k'), 0.5).subsets;
    expect(report).toMatchObject({ errorItems: 10, errorHits: 0, correctItems: 8, correctHits: 8 });
  });

  it('Math-Shepherd: finds the exact first error in 3 of 7 flawed solutions, never flags a + step', async () => {
    const rollouts = await checked('openr_samples_math-shepherd.jsonl');
    const [report] = evaluateFirstError(evaluationItems(rollouts, 'math-shepherd'), 0.5).subsets;
    expect(report?.errorItems).toBe(7);
    expect(report?.errorHits).toBeGreaterThanOrEqual(3);
    expect(report?.errorFlagged).toBeGreaterThanOrEqual(4);
    const steps = stepsByLabel(rollouts);
    expect([steps.fine, steps.fineLow]).toEqual([5, 0]);
    expect(steps.wrongLow).toBeGreaterThanOrEqual(5);
  });

  it('two levels: a step with verified arithmetic scores what a step with nothing to check scores', async () => {
    const rollouts = await checked('gsm8k_openai_example_model_solutions_first120.jsonl');
    const passing = new Set<number | null>();
    let verified = 0;
    for (const r of rollouts) {
      r.stepScores.forEach((score, i) => {
        if (!r.lowSteps.includes(i)) passing.add(score);
        if (r.stepNotes[i]?.startsWith('checked: ')) verified++;
      });
    }
    expect([...passing]).toEqual([0.9]);
    expect(verified).toBeGreaterThan(1_400);
  });
});
