/**
 * Summarising one file of a training run: its records are routed to their training step, each
 * step is analysed by the same Analyzer `prof-lens report` uses (so every PROF option and scorer
 * applies and the figures agree with the report), and each step's analysis is reduced to a
 * `StepPart` as soon as it is finished. Texts are never kept: memory is bounded by the rollouts of
 * the few steps open at once, whatever the file's size.
 */
import type { CasService } from '../../core/cas/casService';
import type { Diagnostic, SourceRecord } from '../../core/model';
import type { ProfSettings } from '../../core/profSettings';
import { partFromAnalysis, type StepPart } from '../../core/run/stepSummary';
import { stepOfFileName, stepOfRecord } from '../../core/run/trainingStep';
import type { FileFigures } from '../../core/run/runSummary';
import { Analyzer } from '../analysis/analyse';
import type { AdaptContext } from '../../core/formats/trainers';
import { eachBrief } from '../../core/report/fileAnalysis';
import type { ScorerChoice } from '../../core/scorerChoice';
import type { Scorer } from '../scorers/scorer';


/** Diagnostics about the whole file rather than a line: a token-id trace file's tokenizer, missing or not used. */
const WHOLE_FILE_NOTES = new Set(['needs-tokenizer']);
/** Records and unreadable lines, as a file's reader yields them batch by batch. */
export interface RecordBatch {
  records: readonly SourceRecord[];
  diagnostics: readonly Diagnostic[];
}

export interface SummariseOptions {
  /** The file's path: its name gives the step of records that name none. */
  file: string;
  settings: Partial<ProfSettings>;
  scorer: ScorerChoice;
  modelScorer?: Scorer;
  signal?: AbortSignal;
  /** Where the algebra runs (the worker's CAS). */
  cas?: CasService;
  /** What the file's records need from outside it (the tokenizer of token-id traces). */
  context?: AdaptContext;
  /**
   * Steps analysed at once. A file whose steps interleave more than this closes the least recently
   * seen step early; if that step comes back, it becomes a second part (merged like a step that
   * spans files). One step per file, or steps in order, never split.
   */
  maxOpenSteps?: number;
}

/** Problems listed per file; the rest are counted. */
const MAX_PROBLEMS = 5;
const DEFAULT_OPEN_STEPS = 8;

interface OpenStep {
  analyzer: Analyzer;
  firstLine: number;
}

class FileSummariser {
  private readonly open = new Map<number, OpenStep>();
  private readonly parts: StepPart[] = [];
  private readonly problems: string[] = [];
  private problemCount = 0;
  private unreadable = 0;
  private unstepped = 0;
  private records = 0;
  /** Why none of the file's records could be read (its tokenizer), said once whatever the steps. */
  private fileReason: string | null = null;
  private readonly fallbackStep: number | null;

  constructor(private readonly options: SummariseOptions) {
    this.fallbackStep = stepOfFileName(options.file);
  }

  async add(batch: RecordBatch): Promise<void> {
    this.options.signal?.throwIfAborted();
    for (const d of batch.diagnostics) this.note(d);
    const byStep = new Map<number, SourceRecord[]>();
    for (const record of batch.records) {
      this.records++;
      const step = stepOfRecord(record.value) ?? this.fallbackStep;
      if (step === null) {
        this.unstepped++;
        continue;
      }
      const list = byStep.get(step);
      if (list) list.push(record);
      else byStep.set(step, [record]);
    }
    for (const [step, records] of byStep) {
      const open = await this.stepFor(step, records[0]!.line);
      await open.analyzer.addRecords(records);
    }
  }

  async finish(): Promise<FileFigures> {
    for (const step of [...this.open.keys()]) await this.close(step);
    const figures: FileFigures = { parts: this.parts, unstepped: this.unstepped, unreadableLines: this.unreadable, problems: this.problems };
    if (this.problemCount > MAX_PROBLEMS) this.problems.push(`… and ${this.problemCount - MAX_PROBLEMS} more problems`);
    if (this.records === 0) figures.error = this.unreadable > 0 ? `no readable record (${this.unreadable} unreadable line${this.unreadable === 1 ? '' : 's'})` : 'the file is empty';
    else if (this.parts.length === 0 && this.fileReason !== null) figures.error = this.fileReason;
    else if (this.parts.length === 0 && this.unstepped < this.records) figures.error = 'no rollouts found in its records';
    else if (this.fileReason !== null) this.problems.unshift(this.fileReason);
    return figures;
  }

  private note(d: Diagnostic): void {
    if (d.severity === 'info') return;
    if (d.severity === 'error') this.unreadable++;
    // Each step's analysis says it once: the file says it once, first, without a line number.
    if (WHOLE_FILE_NOTES.has(d.code)) {
      this.fileReason ??= d.message.replace(/^line \d+: /, '').replace(/ \(and \d+ more lines? alike\)$/, '');
      return;
    }
    if (++this.problemCount <= MAX_PROBLEMS) this.problems.push(d.message);
  }

  /** The open analysis of `step` (most recently used last), opening it and closing the stalest when too many are open. */
  private async stepFor(step: number, line: number): Promise<OpenStep> {
    const existing = this.open.get(step);
    if (existing) {
      this.open.delete(step);
      this.open.set(step, existing);
      return existing;
    }
    const limit = this.options.maxOpenSteps ?? DEFAULT_OPEN_STEPS;
    while (this.open.size >= limit) await this.close(this.open.keys().next().value as number);
    const { file, settings, scorer, modelScorer, signal, context } = this.options;
    const opened: OpenStep = {
      // A summary lists no infos and shows no rollout: the step-count check (an info) and the
      // presentation facts (low steps, evidence lines) are not made.
      analyzer: new Analyzer({ fileName: file, settings, scorer, ...(modelScorer ? { modelScorer } : {}), keepText: false, rawOffsets: false, checkStepCounts: false, facts: false, ...(signal ? { signal } : {}), ...(context ? { context } : {}), ...(this.options.cas ? { cas: this.options.cas } : {}) }),
      firstLine: line,
    };
    this.open.set(step, opened);
    return opened;
  }

  private async close(step: number): Promise<void> {
    const open = this.open.get(step);
    if (!open) return;
    this.open.delete(step);
    const analysis = await open.analyzer.finish();
    for (const d of analysis.diagnostics) this.note(d);
    if (analysis.report.rollouts > 0) this.parts.push(partFromAnalysis(step, open.firstLine, analysis.report, eachBrief(analysis)));
  }
}

/** Summarise a file from its batches of records. */
export async function summariseRecords(batches: AsyncIterable<RecordBatch> | Iterable<RecordBatch>, options: SummariseOptions): Promise<FileFigures> {
  const summariser = new FileSummariser(options);
  for await (const batch of batches) await summariser.add(batch);
  return summariser.finish();
}
