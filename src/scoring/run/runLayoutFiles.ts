/**
 * A run's files as its trainer laid them out (core/run/runLayout.ts): the folder's own files, and
 * the files in the folders trainers nest their steps in (`completions/`, `rollouts/`,
 * `step_N/train/all/` …) — no other folder is walked, symbolic links to folders are not followed,
 * and the walk stops at a few levels and a bounded number of entries, so pointing `trend` at a
 * home folder costs little. What is not a regular file (a FIFO, a socket, a device, a symlink to
 * one, a symlink loop) is never opened — a FIFO would block for ever, `/dev/zero` never ends — and
 * is named as skipped.
 */
import { lstat, open, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { classifyRunFiles, LAYOUT_FOLDERS, RUN_LAYOUT_NAMES, type RunLayout, type RunSplit } from '../../core/run/runLayout';
import { compareRunFiles } from '../../core/run/trainingStep';
import { DETECTION_PREFIX_CHARS, holdsRollouts } from '../../core/rolloutDetection';
import type { FieldRole } from '../../core/profSettings';
import { fileKind } from '../inputs/inputFile';

/** How deep the walk goes (`outputs/rollouts/step_N/train/all/traces.jsonl` is five below `outputs`). */
const MAX_DEPTH = 5;
/** The most entries read in all. */
const MAX_ENTRIES = 200_000;

/** A run path is neither a folder nor a file. */
export class RunPathError extends Error {}

/** A file left out of a run, and why. */
export interface SkippedFile {
  file: string;
  message: string;
}

/** Every entry under `folder` the walk reaches that is not a folder, relative, `/` between segments. */
async function walk(folder: string): Promise<string[]> {
  const found: string[] = [];
  let seen = 0;
  const visit = async (relative: string, depth: number): Promise<void> => {
    const entries = await readdir(relative ? join(folder, relative) : folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return;
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH && LAYOUT_FOLDERS.test(entry.name)) await visit(path, depth + 1);
      } else found.push(path);
    }
  };
  await visit('', 0);
  return found;
}

/** The layout of a run folder, its paths relative to it. */
export async function readRunLayout(folder: string): Promise<RunLayout> {
  return classifyRunFiles(await walk(folder));
}

/**
 * The run's files, absolute, in step order: the step files of the folder as its trainer laid them
 * out (verl's `{step}.jsonl`, TRL's `completions/completions_{step}.parquet`, NeMo-RL's
 * `train_data_step{N}.jsonl`, prime-rl's `step_N/train/all/traces.jsonl`, open-instruct's shards),
 * or the one file given. `split: 'validation'` takes the validation dumps instead (NeMo-RL's
 * `val_data_step{N}.jsonl`, prime-rl's `step_N/eval/all/`). A `.json` object in the folder that
 * holds no rollouts (a config, a metrics file) is not a step. Empty and unreadable files stay in,
 * to be named as problems; what is not a regular file is left out, and named in `skipped` when
 * the caller passes a list.
 */
export async function listRunFiles(path: string, fields: Partial<Record<FieldRole, string>> = {}, split: RunSplit = 'train', skipped?: SkippedFile[]): Promise<string[]> {
  return (await runFilesOf(path, { fields, split, ...(skipped ? { skipped } : {}) })).files;
}

/** How a run's files are listed. */
export interface RunListing {
  fields?: Partial<Record<FieldRole, string>>;
  split?: RunSplit;
  /** Receives the entries left out because they are not regular files. */
  skipped?: SkippedFile[];
}

/** A run's files and its layout (null for a run that is one file). */
export async function runFilesOf(path: string, listing: RunListing = {}): Promise<{ files: string[]; layout: RunLayout | null }> {
  const { fields = {}, split = 'train', skipped } = listing;
  const absolute = resolve(path);
  const info = await stat(absolute).catch(() => null);
  if (!info) throw new RunPathError(`${path}: no such folder or file`);
  if (info.isFile()) return { files: [absolute], layout: null };
  if (!info.isDirectory()) throw new RunPathError(`${path}: expected a folder of rollout files or one rollout file, not ${fileKind(info)}`);
  const layout = await readRunLayout(absolute);
  const candidates = [...layout[split]].sort(compareRunFiles).map((name) => join(absolute, name));
  const kinds = await Promise.all(candidates.map(regularOrWhy));
  const files = candidates.filter((file, i) => {
    const why = kinds[i];
    if (why !== null) skipped?.push({ file, message: `skipped: ${why}` });
    return why === null;
  });
  const isStep = await Promise.all(files.map((file) => (/\.json$/i.test(file) ? mayBeStepFile(file, fields) : true)));
  return { files: files.filter((_, i) => isStep[i]), layout };
}

/**
 * Null for a regular file (through symlinks) or a dangling symlink (named later, as a file that
 * cannot be read); otherwise why the entry is no step file.
 */
async function regularOrWhy(file: string): Promise<string | null> {
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) return info.code === 'ELOOP' ? 'a loop of symbolic links' : null;
  if (info.isFile()) return null;
  const isLink = await lstat(file).then((l) => l.isSymbolicLink(), () => false);
  return `${isLink ? 'a symbolic link to ' : ''}${fileKind(info)}, not a regular file`;
}

/** False for a JSON object document whose first 64 KB hold no rollout record (a run's config or metrics). */
export async function mayBeStepFile(file: string, fields: Partial<Record<FieldRole, string>> = {}): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return true;
  try {
    const buffer = Buffer.alloc(DETECTION_PREFIX_CHARS);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const prefix = buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '');
    if (!/^\s*\{/.test(prefix)) return true;
    const isWholeText = bytesRead < buffer.length;
    return holdsRollouts(prefix, { fileName: file, fields, isWholeText });
  } finally {
    await handle.close();
  }
}

/** Why a run folder gave no files, and where its other files are. */
export function noFilesMessage(layout: RunLayout | null, split: RunSplit): string {
  if (split === 'validation') return `holds no validation dumps (looked for NeMo-RL's val_data_step*.jsonl and prime-rl's step_*/eval/all/traces.jsonl; verl writes them to a folder of their own, validation_data_dir, which is a run of its own)`;
  const elsewhere = layout && layout.validation.length ? ` (only ${layout.validation.length} validation dump${layout.validation.length === 1 ? '' : 's'}: read them with --validation)` : '';
  return `holds no step files${elsewhere}: looked for {step}.jsonl / .json / .parquet files, completions/completions_*.parquet (TRL), train_data_step*.jsonl (NeMo-RL), step_*/train/all/traces.jsonl (prime-rl) and *_rollouts_*.jsonl (open-instruct)`;
}

/** What a run's layout adds to its report: whose layout it is, and the validation dumps left apart. */
export function layoutNote(layout: RunLayout | null, split: RunSplit): string | null {
  // A plain folder of step files (verl's) needs no word about it.
  if (!layout || (layout.kind === 'step-files' && layout.validation.length === 0)) return null;
  const apart = split === 'train' && layout.validation.length ? `; ${layout.validation.length} validation dump${layout.validation.length === 1 ? '' : 's'} apart (a run of their own: trend --validation, or Open Training Run on one of them)` : '';
  return `${RUN_LAYOUT_NAMES[layout.kind]}${split === 'validation' ? ', validation dumps' : ''}${apart}`;
}
