/**
 * Summarising the files of training runs: which files a run holds, which of them the cache
 * already knows, and the rest summarised a few at a time (by worker threads, or in-process with a
 * model scorer), with progress in files and bytes. A file that cannot be read becomes a summary
 * that says why; the other files go on.
 */
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { assembleRun, type FileSummary, type RunSummary } from '../../core/run/runSummary';
import type { RunSplit } from '../../core/run/runLayout';
import type { FieldRole } from '../../core/profSettings';
import type { SummaryCache } from './summaryCache';
import type { JobOptions, SummaryOutcome } from './summaryPool';
import { layoutNote, noFilesMessage, runFilesOf, type SkippedFile } from './runLayoutFiles';
import { errorText } from '../../core/errorText';

/** Summarises one file (a worker pool's job, or an in-process analysis). */
export type FileSummariser = (file: string, options: JobOptions) => Promise<SummaryOutcome>;

/** How far a set of files has come. */
export interface RunProgress {
  filesDone: number;
  filesTotal: number;
  /** Bytes read of the files that were not in the cache, and their total. */
  bytesDone: number;
  bytesTotal: number;
  /** Files taken from the cache. */
  cached: number;
}

export interface SummariseFilesOptions {
  summarise: FileSummariser;
  /** Files summarised at once. */
  parallelism: number;
  cache: SummaryCache | null;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  /** Each file's summary as soon as it is known (cached or fresh). */
  onFile?: (summary: FileSummary) => void;
  /** How many files need summarising so far, each time the cache turns one down (summarisers can start meanwhile). */
  onToDo?: (count: number) => void;
  /**
   * Look files up with blocking calls: a command waits for them anyway, and it then knows in a few
   * milliseconds what a run of hundreds of files needs, rather than in tens while its workers start.
   */
  blocking?: boolean;
  /** Called once every file that needs summarising has been handed to `summarise` (summarisers left idle can stop). */
  onAllHandedOut?: () => void;
  /** Called once the cache has been consulted, with what is left to summarise (before any of it is). */
  onLooked?: (todo: { files: number; bytes: number }) => void;
  /** The user's field mapping, which decides whether a `.json` object in a run folder holds rollouts. */
  fields?: Partial<Record<FieldRole, string>>;
  /** The run's training steps (default) or its validation dumps, read as a run of their own. */
  split?: RunSplit;
}

/** What summarising a set of files came to. */
export interface FilesResult {
  summaries: FileSummary[];
  /** The scorer chain of the files summarised now (none when every file was cached). */
  scorerLabel: string | null;
  /** Why a configured model did not score (the checker did), once per distinct message. */
  modelErrors: string[];
}

function failed(file: string, size: number, mtimeMs: number, message: string): FileSummary {
  return { file, size, mtimeMs, parts: [], unstepped: 0, unreadableLines: 0, problems: [], error: message };
}

/** `work` on every item, at most `limit` at a time (a run of thousands of files must not open them all at once). */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  });
  await Promise.all(lanes);
}

const STAT_PARALLELISM = 32;

type Stamp = { size: number; mtimeMs: number };

function stampLater(file: string): Promise<Stamp | NodeJS.ErrnoException> {
  return stat(file).then((s): Stamp => ({ size: s.size, mtimeMs: s.mtimeMs }), (e: NodeJS.ErrnoException) => e);
}

function stampNow(file: string): Promise<Stamp | NodeJS.ErrnoException> {
  try {
    const s = statSync(file);
    return Promise.resolve({ size: s.size, mtimeMs: s.mtimeMs });
  } catch (error) {
    return Promise.resolve(error as NodeJS.ErrnoException);
  }
}

/** One pass over a set of files: what is known of each, and the progress to report. */
class FilesPass {
  readonly summaries: FileSummary[];
  readonly stamps: (Stamp | NodeJS.ErrnoException)[];
  readonly result: FilesResult;
  /** Files the cache did not know, in the order given. */
  readonly todo: number[] = [];
  private readonly progress: RunProgress;
  private readonly inFlight = new Map<number, number>();
  private finishedBytes = 0;

  constructor(private readonly files: readonly string[], private readonly options: SummariseFilesOptions) {
    this.summaries = new Array<FileSummary>(files.length);
    this.stamps = new Array<Stamp | NodeJS.ErrnoException>(files.length);
    this.result = { summaries: this.summaries, scorerLabel: null, modelErrors: [] };
    this.progress = { filesDone: 0, filesTotal: files.length, bytesDone: 0, bytesTotal: 0, cached: 0 };
  }

  /** Sizes and times of every file; the cache answers for those it knows. */
  async look(): Promise<void> {
    const stampOf = this.options.blocking ? stampNow : stampLater;
    // Last files first: a run gains files at its end (its newest steps), so the first of those the
    // cache does not know is found, and a worker started for it, before the rest are looked up.
    const lastFirst = this.files.map((_, i) => this.files.length - 1 - i);
    await eachLimited(lastFirst, STAT_PARALLELISM, async (i) => {
      const file = this.files[i]!;
      const stamp = await stampOf(file);
      this.stamps[i] = stamp;
      if (stamp instanceof Error) return this.done(i, failed(file, 0, 0, `cannot be read: ${stamp.code ?? stamp.message}`));
      const cached = await this.options.cache?.get(file, stamp);
      if (cached) {
        this.progress.cached++;
        return this.done(i, cached);
      }
      this.todo.push(i);
      this.progress.bytesTotal += stamp.size;
      this.options.onToDo?.(this.todo.length);
    });
    this.todo.sort((a, b) => a - b);
    this.report();
  }

  /** Bytes of the files the cache did not know. */
  get todoBytes(): number {
    return this.progress.bytesTotal;
  }

  /** Summarises one file the cache did not know; a failure becomes a summary that says why. */
  async summarise(i: number): Promise<void> {
    const file = this.files[i]!;
    const { size, mtimeMs } = this.stamps[i] as Stamp;
    const { options, result } = this;
    this.inFlight.set(i, 0);
    try {
      const outcome = await options.summarise(file, { signal: options.signal, onBytes: (bytes) => (this.inFlight.set(i, bytes), this.report()) });
      const summary: FileSummary = { file, size, mtimeMs, ...outcome.figures };
      result.scorerLabel ??= outcome.scorerLabel;
      if (outcome.modelError !== undefined && !result.modelErrors.includes(outcome.modelError)) result.modelErrors.push(outcome.modelError);
      // A summary the model did not score, or of a file that could not be read, is not kept.
      if (outcome.modelError === undefined && summary.error === undefined) await options.cache?.set(summary);
      this.done(i, summary);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      this.done(i, failed(file, size, mtimeMs, `could not be summarised: ${errorText(error)}`));
    } finally {
      this.inFlight.delete(i);
      this.finishedBytes += size;
      this.report();
    }
  }

  private done(i: number, summary: FileSummary): void {
    this.summaries[i] = summary;
    this.progress.filesDone++;
    this.options.onFile?.(summary);
  }

  private report(): void {
    let reading = 0;
    for (const bytes of this.inFlight.values()) reading += bytes;
    this.progress.bytesDone = this.finishedBytes + reading;
    this.options.onProgress?.({ ...this.progress });
  }
}

/** Summarise `files`, the cached ones from the cache; the result is in the order given. */
export async function summariseFiles(files: readonly string[], options: SummariseFilesOptions): Promise<FilesResult> {
  const pass = new FilesPass(files, options);
  await pass.look();
  options.onLooked?.({ files: pass.todo.length, bytes: pass.todoBytes });
  let handedOut = 0;
  await eachLimited(pass.todo, options.parallelism, (i) => {
    const summarised = pass.summarise(i);
    if (++handedOut === pass.todo.length) options.onAllHandedOut?.();
    return summarised;
  });
  return pass.result;
}

/** Summarise whole runs (each a folder or one file); a run with no rollout files says so. */
export async function summariseRuns(paths: readonly string[], options: SummariseFilesOptions): Promise<{ runs: RunSummary[]; scorerLabel: string | null; modelErrors: string[] }> {
  const split = options.split ?? 'train';
  const skipped = paths.map((): SkippedFile[] => []);
  const listed = await Promise.all(paths.map((path, r) => runFilesOf(path, { ...(options.fields ? { fields: options.fields } : {}), split, skipped: skipped[r]! })));
  const all = listed.flatMap((l) => l.files);
  const result = await summariseFiles(all, options);
  let offset = 0;
  const runs = paths.map((path, r) => {
    const listing = listed[r]!;
    const count = listing.files.length;
    const run = assembleRun(path, result.summaries.slice(offset, offset + count));
    offset += count;
    // With no step file, the files left out are named in the problem that says so: not twice.
    const note = layoutNote(count ? listing : { ...listing, leftOut: [] }, split);
    if (note !== null) run.layout = note;
    run.problems.push(...skipped[r]!);
    if (count === 0) run.problems.push({ file: path, message: noFilesMessage(listing, split) });
    else if (run.steps.length === 0) run.problems.push({ file: path, message: `no training step in its ${count} file${count === 1 ? '' : 's'}: none held a readable rollout (see the problems above)` });
    return run;
  });
  return { runs, scorerLabel: result.scorerLabel, modelErrors: result.modelErrors };
}
