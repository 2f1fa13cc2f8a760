import { describe, expect, it } from 'vitest';
import { assembleRun, type FileSummary } from '../../../../src/core/run/runSummary';
import type { StepPart } from '../../../../src/core/run/stepSummary';
import { MAX_PROBLEMS_SENT, MAX_STEPS_SENT, runLabels, runView, thinSteps } from '../../../../src/vscode/run/runViewData';

function part(step: number): StepPart {
  return {
    step, firstLine: 1, rollouts: 8, groups: 1, correct: 4, incorrect: 4, otherOutcomes: 0, allCorrectGroups: 0, allIncorrectGroups: 0, kept: 4, dropped: 4,
    notRanked: 0, byReason: { kept: 4, 'dropped-conflict': 4 }, suspectedFalsePositives: 1, rankedCorrect: 4, penalised: 0, stepCounts: { 3: 8 },
    responseChars: { total: 800, count: 8, p90: 100 }, auroc: 0.75, scoredRollouts: 8, scorers: { file: 8 },
  };
}

function file(name: string, parts: StepPart[], extra: Partial<FileSummary> = {}): FileSummary {
  return { file: name, size: 1, mtimeMs: 1, parts, unstepped: 0, unreadableLines: 0, problems: [], ...extra };
}

describe('what the Run Dashboard is sent', () => {
  it('sends figures and file names, never paths or texts', () => {
    const view = runView({ id: 'file:///runs/a', label: 'a', summary: assembleRun('/runs/a', [file('/runs/a/10.jsonl', [part(10)])]), progress: null });
    expect(view.steps).toEqual([expect.objectContaining({ step: 10, accuracy: 0.5, auroc: 0.75, stepsMedian: 3, fileLabel: '10.jsonl' })]);
    expect(JSON.stringify(view.steps)).not.toContain('/runs/a');
    expect(view).toMatchObject({ totalSteps: 1, stride: 1, files: 1, problemCount: 0, progress: null, location: '/runs/a' });
  });

  it('thins a long run to every k-th step, keeping the latest', () => {
    const steps = Array.from({ length: 10 }, (_, i) => i);
    expect(thinSteps(steps, 4)).toEqual({ steps: [0, 3, 6, 9], stride: 3 });
    expect(thinSteps(steps, 3)).toEqual({ steps: [0, 4, 8, 9], stride: 4 });
    expect(thinSteps(steps, 10).stride).toBe(1);
    const files = Array.from({ length: MAX_STEPS_SENT + 500 }, (_, i) => file(`/r/${i}.jsonl`, [part(i)]));
    const view = runView({ id: 'r', label: 'r', summary: assembleRun('/r', files), progress: null });
    expect(view.steps.length).toBeLessThanOrEqual(MAX_STEPS_SENT + 1);
    expect(view.stride).toBe(2);
    expect(view.steps.at(-1)?.step).toBe(MAX_STEPS_SENT + 499);
  });

  it('lists the first problems by file name and counts the rest', () => {
    const files = Array.from({ length: MAX_PROBLEMS_SENT + 5 }, (_, i) => file(`/r/${i}.jsonl`, [], { error: 'the file is empty' }));
    const view = runView({ id: 'r', label: 'r', summary: assembleRun('/r', files), progress: { filesDone: 3, filesTotal: 25 } });
    expect(view.problems).toHaveLength(MAX_PROBLEMS_SENT);
    expect(view.problems[0]).toEqual({ fileLabel: '0.jsonl', message: 'the file is empty' });
    expect(view.problemCount).toBe(MAX_PROBLEMS_SENT + 5);
    expect(view.progress).toEqual({ filesDone: 3, filesTotal: 25 });
  });

  it('labels runs by folder name, with the parent when two share it', () => {
    expect(runLabels(['/exp/a/rollouts', '/exp/b/rollouts', '/exp/c/steps'])).toEqual(['a/rollouts', 'b/rollouts', 'steps']);
  });
});
