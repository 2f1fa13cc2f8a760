/**
 * A training run opened in the Rollout Explorer: its step files read one at a time (streamed, a
 * batch of records at a time, each file analysed as `prof-lens report` analyses it), each file's
 * rows appended to the run's column store with their run columns (step, file, health detectors)
 * and its analysis let go. The engine is rebuilt as files come in, first after the first file and
 * then each time the rows read have grown by half (or a second has passed), so the first rows show
 * while the rest load and the run's derived columns are made O(log files) times in all. Texts are
 * kept for search within a byte limit (`RunTexts`); past it, the note says what a search covers.
 */
import type { ProfSettings } from '../../core/profSettings';
import type { ScorerChoice } from '../../core/scorerChoice';
import type { CasService } from '../../core/cas/casService';
import { eachRollout } from '../../core/report/fileAnalysis';
import { RunTable } from '../../core/explore/runTable';
import { RunTexts } from '../../core/explore/runTexts';
import { ExplorerEngine } from '../../core/explore/explorerEngine';
import type { RolloutText } from '../../core/explore/textSearch';
import { flagBitsOf } from '../../core/health/rolloutFlags';
import { stepOfFileName, stepOfRecord } from '../../core/run/trainingStep';
import { errorText } from '../../core/errorText';
import { Analyzer } from '../analysis/analyse';
import { fileBatches } from '../run/fileBatches';
import { adaptContextFor } from '../inputs/traceTokenizer';
import { runFilesOf } from '../run/runLayoutFiles';
import type { RunSplit } from '../../core/run/runLayout';
import type { RunProgressView } from '../../protocol/runExplorer';

/** Text a run keeps for search, at most: 512 MiB (estimated). */
export const RUN_TEXT_BYTES = 512 * 1024 * 1024;

export interface RunReadOptions {
  settings: Partial<ProfSettings>;
  scorer: ScorerChoice;
  cas?: CasService;
  /** Bytes of text kept for search (default `RUN_TEXT_BYTES`). */
  textBytes?: number;
  signal?: AbortSignal;
}

/** How far a run's reading has come: the shape the Explorer's channel carries. */
export type RunProgress = RunProgressView;

/** Problems listed; the rest are counted. */
const MAX_PROBLEMS = 5;
/** The longest wait between two rebuilds of the engine while files come in. */
const REBUILD_MS = 1000;

/** One step file appended to `run`: how many rows it added, its texts, and its first problems. */
export async function readRunPart(file: string, run: RunTable, options: RunReadOptions): Promise<{ rows: number; texts: RolloutText[]; problems: string[] }> {
  const context = await adaptContextFor(file, { tokenizerDir: options.settings.tokenizerDir ?? null });
  const fallback = stepOfFileName(file) ?? 0;
  const stepOfLine = new Map<number, number>();
  const problems: string[] = [];
  const analyzer = new Analyzer({ fileName: file, settings: options.settings, scorer: options.scorer, keepText: true, rawOffsets: false, checkStepCounts: false, context, ...(options.cas ? { cas: options.cas } : {}) });
  for await (const batch of fileBatches(file)) {
    options.signal?.throwIfAborted();
    for (const d of batch.diagnostics) if (d.severity === 'error' && problems.length < MAX_PROBLEMS) problems.push(d.message);
    for (const r of batch.records) {
      const step = stepOfRecord(r.value);
      if (step !== null && step !== fallback) stepOfLine.set(r.line, step);
    }
    if (batch.records.length > 0) await analyzer.addRecords(batch.records);
  }
  const analysis = await analyzer.finish();
  const texts: RolloutText[] = [];
  const rows = run.addFile(file, (function* () {
    for (const r of eachRollout(analysis)) {
      texts.push({ prompt: r.prompt, response: r.response });
      yield { rollout: r, step: stepOfLine.get(r.line) ?? fallback, health: flagBitsOf(r.response, r.responseTurns) };
    }
  })());
  return { rows, texts, problems };
}

/** A run being read, and the engine over what has been read so far. */
export class RunExplorer {
  private readonly run = new RunTable();
  private pendingRows = 0;
  private lastBuilt = 0;
  private current: ExplorerEngine | null = null;
  private readonly texts: RunTexts;
  readonly progress: RunProgress = { files: 0, filesRead: 0, rows: 0, problems: [], note: null, done: false };

  constructor(private readonly options: RunReadOptions) {
    this.texts = new RunTexts(options.textBytes ?? RUN_TEXT_BYTES);
  }

  /** The engine over the rows read so far (null before the first file is in). */
  get engine(): ExplorerEngine | null {
    return this.current;
  }

  /** What a search covers, when it does not cover every row read. */
  get searchNote(): string | null {
    return this.current ? this.texts.coverNote(this.current.table.count) : null;
  }

  /** Reads `files` in order; `onProgress` after each file (and when the engine has been rebuilt). */
  async read(files: readonly string[], onProgress: (progress: RunProgress) => void): Promise<void> {
    this.progress.files = files.length;
    for (const file of files) {
      this.options.signal?.throwIfAborted();
      try {
        const part = await readRunPart(file, this.run, this.options);
        if (part.problems.length > 0) this.problem(`${file}: ${part.problems[0]}`);
        this.pendingRows += part.rows;
        if (!this.texts.add(part.texts)) this.progress.note = this.texts.coverNote(this.progress.rows + this.pendingRows);
      } catch (error) {
        if (this.options.signal?.aborted) throw error;
        this.problem(`${file}: ${errorText(error)}`);
      }
      this.progress.filesRead++;
      const isLast = this.progress.filesRead === files.length;
      if (isLast || this.isTimeToBuild()) this.build();
      this.progress.done = isLast;
      onProgress({ ...this.progress, problems: [...this.progress.problems] });
    }
    if (files.length === 0) this.build();
    this.progress.done = true;
  }

  private problem(text: string): void {
    if (this.progress.problems.length < MAX_PROBLEMS) this.progress.problems.push(text);
  }

  private isTimeToBuild(): boolean {
    if (this.current === null) return this.pendingRows > 0;
    return this.pendingRows >= this.progress.rows / 2 || Date.now() - this.lastBuilt >= REBUILD_MS;
  }

  private build(): void {
    if (this.pendingRows === 0 && this.current) return;
    const table = this.run.table();
    this.pendingRows = 0;
    this.lastBuilt = Date.now();
    this.progress.rows = table.count;
    this.current = new ExplorerEngine(table, this.texts.source());
  }
}

/** The step files of a run (the layouts `trend` and the Run Dashboard know). */
export async function runStepFiles(path: string, split: RunSplit): Promise<string[]> {
  return (await runFilesOf(path, { split })).files;
}
