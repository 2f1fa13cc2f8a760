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
import { join, relative, resolve } from 'node:path';
import { classifyRunFiles, isLayoutFolder, needsRolloutCheck, RUN_LAYOUT_NAMES, type RunLayout, type RunSplit } from '../../core/run/runLayout';
import { compareRunFiles } from '../../core/run/trainingStep';
import { DETECTION_PREFIX_CHARS, holdsRollouts } from '../../core/formats/rolloutDetection';
import type { FieldRole } from '../../core/profSettings';
import { withoutBom } from '../../core/read/jsonLines';
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
        if (depth < MAX_DEPTH && isLayoutFolder(entry.name)) await visit(path, depth + 1);
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

/** A run's files, its layout (null for a run that is one file), and where the run was found. */
export interface RunFiles {
  files: string[];
  layout: RunLayout | null;
  /** The folder whose files make the run: the path given, or the one run folder inside it. */
  folder: string;
  /** Files of the run's folder left out because they hold no rollouts (metrics, summaries, configs), relative to it. */
  leftOut: string[];
  /** When the path given holds no run but a folder inside it does: that folder, and the other runs found beside it. */
  inside?: { run: string; others: string[] };
}

/** The most folders inside a path given that are looked at for a run. */
const MAX_INNER_FOLDERS = 64;

/**
 * A run's files and its layout. A folder that holds no step files but has run folders inside it
 * (the folder above a run, as the editor is often opened on) gives the run inside: the only one,
 * or the one written last, the others named.
 */
export async function runFilesOf(path: string, listing: RunListing = {}): Promise<RunFiles> {
  const own = await ownRunFilesOf(path, listing);
  const other = listing.split === 'validation' ? 'train' : 'validation';
  if (own.layout === null || own.files.length > 0 || own.layout[other].length > 0) return own;
  const entries = await readdir(own.folder, { withFileTypes: true }).catch(() => []);
  const inner = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).slice(0, MAX_INNER_FOLDERS);
  const found = (await Promise.all(inner.map(async (e) => {
    const folder = join(own.folder, e.name);
    const skipped: SkippedFile[] = [];
    const sub = await ownRunFilesOf(folder, { ...listing, skipped }).catch(() => null);
    if (!sub || sub.files.length === 0) return null;
    const mtime = await stat(folder).then((i) => i.mtimeMs, () => 0);
    return { sub, skipped, name: e.name, mtime };
  }))).filter((r): r is NonNullable<typeof r> => r !== null);
  const chosen = found.sort((a, b) => b.mtime - a.mtime || (a.name < b.name ? -1 : 1))[0];
  if (!chosen) return own;
  listing.skipped?.push(...chosen.skipped);
  return { ...chosen.sub, inside: { run: chosen.name, others: found.slice(1).map((f) => f.name).sort() } };
}

async function ownRunFilesOf(path: string, listing: RunListing): Promise<RunFiles> {
  const { fields = {}, split = 'train', skipped } = listing;
  const absolute = resolve(path);
  const info = await stat(absolute).catch(() => null);
  if (!info) throw new RunPathError(`${path}: no such folder or file`);
  if (info.isFile()) return { files: [absolute], layout: null, folder: absolute, leftOut: [] };
  if (!info.isDirectory()) throw new RunPathError(`${path}: expected a folder of rollout files or one rollout file, not ${fileKind(info)}`);
  const layout = await readRunLayout(absolute);
  const candidates = [...layout[split]].sort(compareRunFiles).map((name) => join(absolute, name));
  const kinds = await Promise.all(candidates.map(regularOrWhy));
  const files = candidates.filter((file, i) => {
    const why = kinds[i];
    if (why !== null) skipped?.push({ file, message: `skipped: ${why}` });
    return why === null;
  });
  const isStep = await Promise.all(files.map((file) => (needsRolloutCheck(file) ? mayBeStepFile(file, fields) : true)));
  const leftOut = files.filter((_, i) => !isStep[i]).map((file) => relative(absolute, file).replace(/\\/g, '/')).sort();
  return { files: files.filter((_, i) => isStep[i]), layout, folder: absolute, leftOut };
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

/**
 * False for a document whose first 64 KB hold no rollout record (a run's config, metrics or
 * evaluation summary). An empty file, or one that starts with no JSON object (an array, a broken line), may still be a
 * step file: it stays, to be named as a problem.
 */
export async function mayBeStepFile(file: string, fields: Partial<Record<FieldRole, string>> = {}): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return true;
  try {
    const buffer = Buffer.alloc(DETECTION_PREFIX_CHARS);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const prefix = withoutBom(buffer.subarray(0, bytesRead).toString('utf8'));
    if (!/^\s*\{/.test(prefix)) return true;
    const isWholeText = bytesRead < buffer.length;
    return holdsRollouts(prefix, { fileName: file, fields, isWholeText });
  } finally {
    await handle.close();
  }
}

/** Why a run folder gave no files, and where its other files are. */
export function noFilesMessage(run: Pick<RunFiles, 'layout' | 'leftOut'>, split: RunSplit): string {
  const { layout } = run;
  const leftOut = run.leftOut.length ? `; ${leftOutWords(run.leftOut)}` : '';
  if (split === 'validation') return `holds no validation dumps (looked for NeMo-RL's val_data_step*.jsonl, prime-rl's step_*/eval/all/traces.jsonl and AReaL's eval-rollout/*/; verl writes them to a folder of their own, validation_data_dir, which is a run of its own)${leftOut}`;
  const elsewhere = layout && layout.validation.length ? ` (only ${layout.validation.length} validation dump${layout.validation.length === 1 ? '' : 's'}: read them with --validation)` : '';
  return `holds no step files${elsewhere}: looked for {step}.jsonl / .json / .parquet files and folders named after their step (step_12/, grpo_step_000100/, global_step_40/), in it and in the folders inside it, completions/completions_*.parquet (TRL), train_data_step*.jsonl (NeMo-RL), step_*/train/all/traces.jsonl (prime-rl), *_rollouts_*.jsonl (open-instruct), rollout/{version}/*.jsonl (AReaL) and dumped_evals/global_step_*_evals/ (SkyRL)${leftOut}`;
}

/** The files left out, named (the first few, and how many more). */
function leftOutWords(files: readonly string[]): string {
  const shown = files.slice(0, 6).join(', ');
  const more = files.length > 6 ? ` and ${files.length - 6} more` : '';
  return `left out ${files.length} file${files.length === 1 ? '' : 's'} that hold${files.length === 1 ? 's' : ''} no rollouts: ${shown}${more}`;
}

/**
 * What a run's layout adds to its report: which run was opened when the path given is the folder
 * above it, whose layout it is, the validation dumps left apart, and the files that hold no rollouts.
 */
export function layoutNote(run: Pick<RunFiles, 'layout' | 'leftOut' | 'inside'>, split: RunSplit): string | null {
  const { layout } = run;
  if (!layout) return null;
  const parts: string[] = [];
  if (run.inside) {
    const others = run.inside.others;
    const beside = others.length ? `, the one written last; also here: ${others.slice(0, 6).join(', ')}${others.length > 6 ? ` and ${others.length - 6} more` : ''}` : '';
    parts.push(`the run in ${run.inside.run}/${beside}`);
  }
  // A plain folder of step files (verl's) needs no word about its layout.
  if (layout.kind !== 'step-files' || layout.validation.length > 0) {
    const apart = split === 'train' && layout.validation.length ? `; ${layout.validation.length} validation dump${layout.validation.length === 1 ? '' : 's'} apart (a run of their own: trend --validation, or Open Training Run on one of them)` : '';
    parts.push(`${RUN_LAYOUT_NAMES[layout.kind]}${split === 'validation' ? ', validation dumps' : ''}${apart}`);
  }
  if (run.leftOut.length) parts.push(leftOutWords(run.leftOut));
  return parts.length ? parts.join('; ') : null;
}
