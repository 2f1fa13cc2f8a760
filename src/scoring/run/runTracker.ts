/**
 * A training run kept up to date while it grows: the summaries of its files, a first pass over
 * all of them (cached ones from the cache), then only the files that appear or change — a file
 * whose size and modification time are what they were is never read again. The editor feeds it
 * file-system events; a periodic rescan of sizes and times catches events a watcher missed.
 */
import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { isRunFile, type RunLayoutKind, type RunSplit } from '../../core/run/runLayout';
import { assembleRun, type FileSummary, type RunSummary } from '../../core/run/runSummary';
import { summariseFiles, type FileSummariser, type RunProgress } from './runFiles';
import { needsRolloutCheck } from '../../core/run/runLayout';
import { layoutNote, mayBeStepFile, noFilesMessage, runFilesOf } from './runLayoutFiles';
import type { SummaryCache } from './summaryCache';

export interface RunTrackerDeps {
  summarise: FileSummariser;
  parallelism: number;
  cache: SummaryCache | null;
  /** Quiet time after a file's last change before it is read (a trainer writes a step file in pieces). */
  settleMs?: number;
}

/** One run, its files' summaries, and what is being summarised now. */
export class RunTracker {
  private readonly known = new Map<string, FileSummary>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Files being read now, and those that changed again meanwhile. */
  private readonly reading = new Set<string>();
  private readonly again = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private controller = new AbortController();
  private isFileRun = false;
  private current: RunProgress | null = null;
  private lastModelError: string | null = null;
  /** Whose layout the run folder has (which files are its steps), once started. */
  private layoutKind: RunLayoutKind = 'step-files';
  private layoutText: string | null = null;
  /** The folder whose files make the run: the path opened, or the run folder found inside it. */
  private runFolder: string;
  /** Why the run has no files, when it has none (what the command line says too). */
  private noFiles: string | null = null;

  /** `split`: the run's training steps (default), or its validation dumps as a run of their own. */
  constructor(readonly path: string, private deps: RunTrackerDeps, readonly split: RunSplit = 'train') {
    this.path = resolve(path);
    this.runFolder = this.path;
  }

  /** The folder whose files make the run (the file's folder for a one-file run). */
  get folder(): string {
    return this.isFileRun ? dirname(this.path) : this.runFolder;
  }

  /** Whether the run is one file (the path opened is a file). */
  get isOneFile(): boolean {
    return this.isFileRun;
  }

  /** Files summarised so far during a pass, or null when the run is up to date. */
  get progress(): RunProgress | null {
    return this.current;
  }

  /** Why the configured model did not score the files read last (the checker did), or null. */
  get modelError(): string | null {
    return this.lastModelError;
  }

  /** Called after every change of the run's summary or progress. */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The run as it stands. */
  summary(): RunSummary {
    const files = [...this.known.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const run = assembleRun(this.path, files);
    if (this.layoutText !== null) run.layout = this.layoutText;
    if (this.noFiles !== null && files.length === 0) run.problems.push({ file: this.path, message: this.noFiles });
    return run;
  }

  /** Reads every file of the run (the cache answers for those it knows). */
  async start(): Promise<void> {
    const info = await stat(this.path).catch(() => null);
    this.isFileRun = info?.isFile() ?? false;
    const found = await runFilesOf(this.path, { split: this.split });
    this.runFolder = this.isFileRun ? this.path : found.folder;
    this.layoutKind = found.layout?.kind ?? 'step-files';
    // With no step file, the files left out are named in the problem that says so: not twice.
    this.layoutText = layoutNote(found.files.length ? found : { ...found, leftOut: [] }, this.split);
    this.noFiles = found.files.length === 0 ? noFilesMessage(found, this.split) : null;
    const files = found.files;
    await this.read(files);
  }

  /** Starts over with other settings or another scorer: every file is summarised again (or taken from that cache). */
  async restart(deps: RunTrackerDeps): Promise<void> {
    this.controller.abort();
    this.controller = new AbortController();
    this.deps = deps;
    this.known.clear();
    this.emit();
    await this.start();
  }

  /** Whether a path is one of this run's files. */
  owns(file: string): boolean {
    const absolute = resolve(file);
    if (this.isFileRun) return absolute === this.path;
    const inside = relative(this.runFolder, absolute);
    return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) && isRunFile(this.layoutKind, inside, this.split);
  }

  /** A file appeared or changed: read it once it has been quiet for a moment (if its size or time changed). */
  changed(file: string): void {
    if (!this.owns(file)) return;
    const absolute = resolve(file);
    clearTimeout(this.timers.get(absolute));
    this.timers.set(absolute, setTimeout(() => {
      this.timers.delete(absolute);
      void this.refreshFile(absolute);
    }, this.deps.settleMs ?? 400));
  }

  /** A file is gone: its steps leave the run. */
  deleted(file: string): void {
    const absolute = resolve(file);
    if (this.known.delete(absolute)) this.emit();
  }

  /** Compares the folder with what is known (sizes and times only) and reads what is new or changed. */
  async rescan(): Promise<void> {
    const files = await runFilesOf(this.runFolder, { split: this.split }).then((r) => r.files, () => [] as string[]);
    const present = new Set(files);
    for (const file of [...this.known.keys()]) if (!present.has(file)) this.deleted(file);
    for (const file of files) void this.refreshFile(file);
  }

  dispose(): void {
    this.controller.abort();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.listeners.clear();
  }

  private async refreshFile(file: string): Promise<void> {
    if (this.reading.has(file)) {
      this.again.add(file);
      return;
    }
    const info = await stat(file).catch(() => null);
    const known = this.known.get(file);
    if (!info) return this.deleted(file);
    // A config or metrics file written into the run folder is not a step.
    if (!this.isFileRun && needsRolloutCheck(file) && !(await mayBeStepFile(file))) return this.deleted(file);
    if (known && known.size === info.size && known.mtimeMs === info.mtimeMs && known.error === undefined) return;
    this.reading.add(file);
    try {
      await this.read([file]);
    } finally {
      this.reading.delete(file);
    }
    if (this.again.delete(file)) await this.refreshFile(file);
  }

  private async read(files: readonly string[]): Promise<void> {
    const { signal } = this.controller;
    const result = await summariseFiles(files, {
      summarise: this.deps.summarise,
      parallelism: this.deps.parallelism,
      cache: this.deps.cache,
      signal,
      onProgress: (p) => {
        if (signal.aborted) return;
        this.current = p.filesDone < p.filesTotal ? p : null;
        this.emit();
      },
      onFile: (summary) => {
        if (signal.aborted) return;
        this.known.set(summary.file, summary);
        this.emit();
      },
    }).catch((error: unknown) => {
      // A restart or disposal cancelled this pass; anything else is a bug worth surfacing.
      if (!signal.aborted) throw error;
      return null;
    });
    if (!signal.aborted && result) {
      if (result.scorerLabel !== null) this.lastModelError = result.modelErrors[0] ?? null;
      this.current = null;
      this.emit();
    }
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
