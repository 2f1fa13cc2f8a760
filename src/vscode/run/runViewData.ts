/**
 * What the Run Dashboard is sent about a run: each step's figures (no texts, no paths), the file
 * names of problems, and never more than a bounded number of steps (a long run is thinned to every
 * k-th step, the latest always kept). Pure: no editor API, so it is tested directly.
 */
import { basename, dirname } from 'node:path';
import type { RunSummary } from '../../core/run/runSummary';
import type { StepSummary } from '../../core/run/stepSummary';
import type { RunStepPoint, RunView } from '../../protocol/run';

/** Steps sent per run at most; beyond it every k-th step is sent. */
export const MAX_STEPS_SENT = 2000;
/** Problems listed per run; the rest are counted. */
export const MAX_PROBLEMS_SENT = 20;

function point(s: StepSummary): RunStepPoint {
  return {
    step: s.step, rollouts: s.rollouts, groups: s.groups, correct: s.correct, incorrect: s.incorrect, accuracy: s.accuracy, allCorrectGroups: s.allCorrectGroups,
    allIncorrectGroups: s.allIncorrectGroups, kept: s.kept, dropped: s.dropped, notRanked: s.notRanked, byReason: s.byReason,
    suspectedFalsePositives: s.suspectedFalsePositives, falsePositiveShare: s.falsePositiveShare, penalised: s.penalised,
    stepsMean: s.stepsMean, stepsMedian: s.stepsMedian, stepsP90: s.stepsP90, responseCharsMean: s.responseCharsMean,
    responseCharsP90: s.responseCharsP90, auroc: s.auroc, ...(s.approximate ? { approximate: s.approximate } : {}),
    fileLabel: s.sources[0] ? basename(s.sources[0].file) : '',
  };
}

/** Every `stride`-th step (and the last), with the stride that keeps them within `max`. */
export function thinSteps<T>(steps: readonly T[], max: number): { steps: T[]; stride: number } {
  if (steps.length <= max) return { steps: [...steps], stride: 1 };
  const stride = Math.ceil(steps.length / max);
  const kept = steps.filter((_, i) => i % stride === 0);
  if ((steps.length - 1) % stride !== 0) kept.push(steps[steps.length - 1]!);
  return { steps: kept, stride };
}

export interface RunViewInput {
  id: string;
  label: string;
  summary: RunSummary;
  progress: RunView['progress'];
  modelError?: string | null;
}

/** The run as the dashboard is sent it. */
export function runView(input: RunViewInput): RunView {
  const { summary } = input;
  const thinned = thinSteps(summary.steps, MAX_STEPS_SENT);
  return {
    id: input.id,
    label: input.label,
    location: summary.path,
    steps: thinned.steps.map(point),
    totalSteps: summary.steps.length,
    stride: thinned.stride,
    files: summary.files,
    problems: summary.problems.slice(0, MAX_PROBLEMS_SENT).map((p) => ({ fileLabel: basename(p.file), message: p.message })),
    problemCount: summary.problems.length,
    progress: input.progress,
    modelError: input.modelError ?? null,
    layout: summary.layout ?? null,
  };
}

/** Short labels for run paths: the last folder name, with its parent's when two runs share it. */
export function runLabels(paths: readonly string[]): string[] {
  const short = paths.map((p) => basename(p) || p);
  return paths.map((p, i) => (short.filter((s) => s === short[i]).length > 1 ? `${basename(dirname(p))}/${short[i]}` : short[i]!));
}
