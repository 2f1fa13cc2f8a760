/**
 * A training run from its files' summaries: every step's parts merged, steps in ascending order,
 * and each file that could not be read (or held nothing usable) named with why. Pure: the files
 * are summarised elsewhere (in worker threads), and only their summaries come here.
 */
import { mergeParts, type StepPart, type StepSummary } from './stepSummary';

/** What summarising one file gives; cached on disk, so it holds figures, never texts. */
export interface FileSummary {
  file: string;
  size: number;
  mtimeMs: number;
  /** One part per step found in the file (a step can have more than one part: see summariseLines). */
  parts: StepPart[];
  /** Records that name no step (no `step`/`global_step` field, no number in the file's name). */
  unstepped: number;
  /** Lines that could not be read as records. */
  unreadableLines: number;
  /** Problems worth a user's attention, each naming its line. */
  problems: string[];
  /** Why the file could not be summarised at all (unreadable, not rollouts); the run goes on without it. */
  error?: string;
}

/** The figures of one file, as a summariser computes them; the caller adds where and what the file is. */
export type FileFigures = Omit<FileSummary, 'file' | 'size' | 'mtimeMs'>;

/** A problem with one file of a run. */
export interface RunProblem {
  file: string;
  message: string;
}

/** One run: its steps (ascending) and the problems of its files. */
export interface RunSummary {
  path: string;
  /** Whose layout the folder has, and what of it was left apart (validation dumps), in words. */
  layout?: string;
  files: number;
  steps: StepSummary[];
  problems: RunProblem[];
}

/** Problems of one file, in the order a user should read them. */
export function fileProblems(summary: FileSummary): RunProblem[] {
  const out: RunProblem[] = [];
  const add = (message: string): number => out.push({ file: summary.file, message });
  if (summary.error !== undefined) add(summary.error);
  if (summary.unstepped > 0) {
    add(`${summary.unstepped} record${summary.unstepped === 1 ? '' : 's'} name no training step: expected a "step" or "global_step" field, or a number in the file's name`);
  }
  for (const problem of summary.problems) add(problem);
  return out;
}

/** Merge the files' summaries (in the run's file order) into the run's steps. */
export function assembleRun(path: string, files: readonly FileSummary[]): RunSummary {
  const byStep = new Map<number, { file: string; part: StepPart }[]>();
  for (const summary of files) {
    for (const part of summary.parts) {
      const list = byStep.get(part.step) ?? [];
      list.push({ file: summary.file, part });
      byStep.set(part.step, list);
    }
  }
  const steps = [...byStep.keys()].sort((a, b) => a - b).map((step) => mergeParts(byStep.get(step)!));
  return { path, files: files.length, steps, problems: files.flatMap(fileProblems) };
}
