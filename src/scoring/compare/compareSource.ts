/**
 * What a side of `compare` names: a rollout file (`step40.jsonl`), one step of a run folder
 * (`runs/grpo@40`: its files named for step 40, and any file named for no step, whose records
 * say their step), or one step of a file that holds several (`all.jsonl@40`: the records whose
 * `step`/`global_step` is 40). A path that exists as written is that path even if it holds an `@`.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { stepOfFileName } from '../../core/run/trainingStep';
import type { FieldRole } from '../../core/profSettings';
import { listRunFiles, RunPathError } from '../run/runLayoutFiles';

/** A side as resolved: the files to read and, for a step, which records of them belong. */
export interface CompareSource {
  /** As the user wrote it (what the output calls the side). */
  label: string;
  files: string[];
  /** The training step to keep (null: every record of the files). */
  step: number | null;
  /** The step each file's records belong to when they name none (its name's step). */
  fileSteps: (number | null)[];
}

/** A side that cannot be compared; the message says what was expected. */
export class CompareSourceError extends Error {}

const HELP = 'a side is a rollout file, a run folder with a step (runs/grpo@40), or a file of several steps with one (all.jsonl@40)';

async function kindOf(path: string): Promise<'file' | 'folder' | null> {
  const info = await stat(path).catch(() => null);
  if (!info) return null;
  return info.isDirectory() ? 'folder' : 'file';
}

/** `runs/grpo@40` → path and step; null step when the text names none. */
function splitStep(text: string): { path: string; step: number | null } | null {
  const at = text.lastIndexOf('@');
  if (at <= 0) return null;
  const step = text.slice(at + 1);
  if (!/^\d+$/.test(step) || !Number.isSafeInteger(Number(step))) return null;
  return { path: text.slice(0, at), step: Number(step) };
}

/** The steps a run's file names name, for a message: `10, 20, 40`. */
function stepsNamed(files: readonly string[]): string {
  const steps = [...new Set(files.map(stepOfFileName).filter((s): s is number => s !== null))].sort((a, b) => a - b);
  if (steps.length === 0) return 'its files name no step';
  const shown = steps.length > 12 ? [...steps.slice(0, 6), '…', ...steps.slice(-5)] : steps;
  return `steps in its file names: ${shown.join(', ')}`;
}

/** Resolves one side (`text` as the user wrote it, relative to `cwd`). */
export async function resolveCompareSource(text: string, cwd: string, fields: Partial<Record<FieldRole, string>> = {}): Promise<CompareSource> {
  const whole = resolve(cwd, text);
  const wholeKind = await kindOf(whole);
  if (wholeKind === 'file') return { label: text, files: [whole], step: null, fileSteps: [stepOfFileName(whole)] };
  const listFiles = async (folder: string): Promise<string[]> => listRunFiles(folder, fields).catch((error: unknown) => {
    throw error instanceof RunPathError ? new CompareSourceError(error.message) : error;
  });
  if (wholeKind === 'folder') {
    throw new CompareSourceError(`${text} is a run folder: name one of its steps, e.g. ${text}@40 (${stepsNamed(await listFiles(whole))}); ${HELP}`);
  }
  const split = splitStep(text);
  if (!split) throw new CompareSourceError(`${text}: no such file or folder; ${HELP}`);
  const path = resolve(cwd, split.path);
  const kind = await kindOf(path);
  if (kind === null) throw new CompareSourceError(`${split.path}: no such file or folder (from ${text}); ${HELP}`);
  if (kind === 'file') return { label: text, files: [path], step: split.step, fileSteps: [stepOfFileName(path)] };
  const all = await listFiles(path);
  const files = all.filter((f) => {
    const named = stepOfFileName(f);
    return named === null || named === split.step;
  });
  if (files.length === 0) throw new CompareSourceError(`${split.path} has no file for step ${split.step} (${stepsNamed(all)})`);
  return { label: text, files, step: split.step, fileSteps: files.map(stepOfFileName) };
}
