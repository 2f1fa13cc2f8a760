/**
 * The whole analysis: records → rollouts → steps → step scores (scorer chain) → outcomes (file,
 * else graded answer) → groups → PROF decisions → report. Records can be fed in batches as a file
 * streams in, so a large dump never needs to be held as text.
 */
import type { Diagnostic, NotDecided, Rollout, SourceRecord, StepScoring, Outcome } from '../../core/model';
import type { CasService } from '../../core/cas/casService';
import { holdCas, type HeldCas } from '../cas/casClient';
import { eachRollout, type AnalysedRollout, type AnalysedRows, type FileAnalysis } from '../../core/report/fileAnalysis';
import { resolveSettings, validateSettings, type ProfSettings } from '../../core/profSettings';
import { prepareRecordInto, type PrepareOptions, type PreparedRollout } from '../../core/formats/prepareRollout';
import { RolloutTable } from '../../core/table/rolloutTable';
import { decideTable } from '../../core/rules/decide';
import { writeRolloutFacts } from '../../core/presentation/rolloutFacts';
import { reportOfTable } from '../../core/report/tableReport';
import { readText } from '../../core/read/reader';
import { FieldPresence } from '../../core/formats/fieldPresence';
import type { Scorer, ScorerInfo } from '../scorers/scorer';
import type { ScorerChoice } from '../../core/scorerChoice';
import { createScorerChain, hasFileScores } from '../scorers/chain';
import { GradingAgreement, OutcomeResolver, type UngradedAnswer } from './outcomes';
import type { AdaptContext } from '../../core/formats/trainers';
import { PLAIN_PROMPT, questionReadingOf } from '../../core/transcript/promptReading';
import { responseTurnsOf } from '../../core/transcript/rolloutText';
import type { CheckerPool } from '../scorers/checker/checkerPool';
import { CheckerWorkerError } from '../scorers/checker/checkerScorer';
import { responseWords } from '../../core/presentation/locationWords';

/**
 * A batch of records begun: prepared (in file order), its outcomes and scores on their way. It is
 * added to the analysis by `commit`, in the order batches were begun, with the diagnostics its
 * reading found first, so that several batches can be scored at once and the result is the same.
 */
export interface BegunBatch {
  readonly prepared: PreparedRollout[];
  /** What reading the batch's lines found, then what preparing its records found. */
  readonly readDiagnostics: readonly Diagnostic[];
  readonly found: readonly Diagnostic[];
  readonly work: Promise<[{ outcomes: Outcome[]; ungraded: UngradedAnswer[]; agreement: GradingAgreement }, StepScoring[]]>;
}

/** One analysis: the CLI, the editor's worker and the tests all describe it this way. */
export interface AnalyseOptions {
  fileName: string;
  settings?: Partial<ProfSettings>;
  /** `auto` (default): the file's scores where present, else `modelScorer`, else the embedded checker. */
  scorer?: ScorerChoice;
  /** The configured model (the chain still prefers file scores under `auto`; `onnx`/`http` force it). */
  modelScorer?: Scorer;
  /** Keep prompt/response/step texts (default true). Reports on large files turn this off. */
  keepText?: boolean;
  /** Extract every final answer for display, even where the file states the outcome (default: keepText). */
  extractAnswers?: boolean;
  /** Compute raw-line offsets of steps (default true). */
  rawOffsets?: boolean;
  /**
   * Note where a record's step scores and its split disagree (an `info` diagnostic; default true).
   * A run summary lists no infos: without texts or offsets it then splits no response at all.
   */
  checkStepCounts?: boolean;
  /**
   * Derive each rollout's presentation facts: low steps, weakest step, evidence line (default
   * true). A run summary shows none of them; its rollouts keep the empty placeholders.
   */
  facts?: boolean;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Where the algebra runs, for grading and the checker: passed in by the composition root; without one, the analysis starts its own and stops it when it finishes. */
  cas?: CasService;
  /** What trainers' records need from outside the file (the tokenizer of token-id traces). */
  context?: AdaptContext;
  /** Worker threads for the embedded checker (default: it judges in this thread). */
  checkerPool?: CheckerPool;
}

/** Analyse a whole text (an open document). */
export async function analyseText(text: string, options: AnalyseOptions): Promise<FileAnalysis> {
  const analyzer = new Analyzer(options);
  const read = readText(text, options.fileName);
  analyzer.addDiagnostics(read.diagnostics);
  const batch = 2000;
  const total = read.records.length;
  for (let i = 0; i < total; i += batch) {
    const size = Math.min(batch, total - i);
    // A model scores a batch slowly: progress within it keeps the status bar moving.
    await analyzer.addRecords(read.records.slice(i, i + size), (done, of) => options.onProgress?.(i + Math.floor((size * done) / Math.max(1, of)), total));
    options.onProgress?.(i + size, total);
    // A turn of the event loop between batches, so a worker reads its cancel message in time.
    await new Promise((resolve) => setImmediate(resolve));
    options.signal?.throwIfAborted();
  }
  return analyzer.finish();
}

/** Where in a grouped line a rollout sits, for messages: nothing for a flat line. */
function whichResponse(r: Rollout): string {
  return r.format === 'grouped' ? `${responseWords(r)}: ` : '';
}

/** The diagnostic for an answer the CAS did not decide: the outcome stays unknown, and the user sees why. */
function notGraded(u: UngradedAnswer): Diagnostic {
  return {
    line: u.rollout.line,
    severity: 'warning',
    code: 'answer-not-graded',
    message: `${whichResponse(u.rollout)}the answer "${u.answer}" was not graded: ${u.reason}`,
  };
}

/** The diagnostic for a step claim the CAS did not decide: the step is scored as if it held no claim. */
function notChecked(r: Rollout, n: NotDecided): Diagnostic {
  return {
    line: r.line,
    severity: 'warning',
    code: 'claim-not-checked',
    message: `${whichResponse(r)}step ${n.step + 1}: "${n.text}" was not checked: ${n.reason}`,
  };
}

/**
 * Notes that hold for the whole file, which every line would repeat (a tokenizer is missing, no
 * reward column names the outcome): shown once, with the number of lines alike.
 */
const FILE_NOTES = new Set(['needs-tokenizer', 'outcome-column']);

/** Answers graded at most to check a file's stated outcomes against its gold: the first of the file. */
export const MAX_AGREEMENT_GRADED = 2048;

/** Notes of a rollout whose scorer said nothing about its steps: one frozen empty list. */
const NO_NOTES = Object.freeze([]) as unknown as (string | null)[];
const NO_SCORES = Object.freeze([]) as unknown as (number | null)[];

/** Incremental analysis: feed records in batches, then `finish()`. */
export class Analyzer {
  readonly settings: ProfSettings;
  /** The rollouts so far, as columns (no object graph per rollout: see `RolloutTable`). */
  private readonly table = new RolloutTable();
  private readonly diagnostics: Diagnostic[] = [];
  private readonly chain: ReturnType<typeof createScorerChain>;
  private readonly outcomes: OutcomeResolver;
  /** Grading against the gold where the file also states the outcome. */
  private readonly agreement = new GradingAgreement();
  /** How many more answers the agreement check grades (spent as batches begin, in file order). */
  private readonly agreementBudget = { left: MAX_AGREEMENT_GRADED };
  private readonly keepText: boolean;
  private readonly rawOffsets: boolean;
  private readonly extractAnswers: boolean;
  private unreadable = 0;
  /** Rollouts prepared so far (committed or not): the next one's id. */
  private begun = 0;
  private readonly countOnly: ((r: Rollout) => boolean) | undefined;
  /** Which paths of the field mapping some record has; the first record's line, for the message about the others. */
  private readonly presence: FieldPresence;
  private firstLine: number | null = null;
  /** What the adapters get beside the records: a summary without facts shows no reward fields. */
  private readonly context: AdaptContext;
  /** The first diagnostic of each note about the whole file, and how many lines repeated it. */
  private readonly fileNotes = new Map<string, { diagnostic: Diagnostic; repeats: number }>();

  /** The CAS passed in, or the analysis's own (stopped when it finishes). */
  private readonly cas: HeldCas;

  constructor(private readonly options: AnalyseOptions) {
    this.settings = resolveSettings(options.settings);
    const problems = validateSettings(this.settings);
    if (problems.length) throw new Error(`invalid settings: ${problems.join('; ')}`);
    this.cas = holdCas(options.cas);
    this.chain = createScorerChain(options.scorer ?? 'auto', options.modelScorer, this.cas.cas, options.checkerPool);
    this.outcomes = new OutcomeResolver(this.cas.cas);
    this.presence = new FieldPresence(this.settings.fields);
    this.keepText = options.keepText ?? true;
    this.rawOffsets = options.rawOffsets ?? true;
    this.extractAnswers = options.extractAnswers ?? this.keepText;
    this.context = options.facts === false ? { ...options.context, rewards: false } : (options.context ?? {});
    const choice = options.scorer ?? 'auto';
    // Without texts or offsets to keep, a rollout scored from its own file scores needs only its step count.
    const needsSteps = this.keepText || this.rawOffsets || !(choice === 'auto' || choice === 'file');
    this.countOnly = needsSteps ? undefined : hasFileScores;
  }

  /** Diagnostics from reading (unreadable lines count towards `unreadableLines`). */
  addDiagnostics(diagnostics: readonly Diagnostic[]): void {
    for (const d of diagnostics) {
      if (d.severity === 'error') this.unreadable++;
      this.keepDiagnostic(d);
    }
  }

  /** Kept, except the repeats of a note about the whole file: the first stands for them and counts them. */
  private keepDiagnostic(d: Diagnostic): void {
    if (!FILE_NOTES.has(d.code)) return void this.diagnostics.push(d);
    const first = this.fileNotes.get(d.code);
    if (!first) {
      this.fileNotes.set(d.code, { diagnostic: d, repeats: 0 });
      this.diagnostics.push(d);
    } else first.repeats++;
  }

  /** Prepare, grade and score a batch of records; `onScored` follows the scorer through the batch. */
  async addRecords(records: readonly SourceRecord[], onScored?: (done: number, total: number) => void): Promise<void> {
    await this.decode(records);
    await this.commit(this.begin(records, [], onScored));
  }

  /** What the records need decoded before `begin` adapts them (token ids, in the tokenizer's worker). */
  async decode(records: readonly SourceRecord[]): Promise<void> {
    await this.context.decoder?.prepare?.(records);
  }

  /**
   * Prepare a batch now and start its grading and scoring; `readDiagnostics` (what reading its
   * lines found) are kept when it is committed. Batches must be committed in the order begun.
   */
  begin(records: readonly SourceRecord[], readDiagnostics: readonly Diagnostic[] = [], onScored?: (done: number, total: number) => void): BegunBatch {
    const prepared: PreparedRollout[] = [];
    const prepareOptions: PrepareOptions = { settings: this.settings, rawOffsets: this.rawOffsets, firstId: this.begun, countOnly: this.countOnly, checkStepCount: this.options.checkStepCounts ?? true, context: this.context };
    const found: Diagnostic[] = [];
    for (const record of records) {
      this.firstLine ??= record.line;
      this.presence.observe(record.value);
      if (prepareRecordInto(record, prepareOptions, prepared, found)) this.unreadable++;
    }
    this.begun += prepared.length;
    const rollouts = new Array<Rollout>(prepared.length);
    for (let i = 0; i < prepared.length; i++) rollouts[i] = (prepared[i] as PreparedRollout).rollout;
    const signal = this.options.signal;
    const work = Promise.all([
      this.outcomes.resolve(rollouts, { extractAlways: this.extractAnswers, agreementBudget: this.agreementBudget, ...(signal ? { signal } : {}) }),
      this.chain.score(prepared, { signal, ...(onScored ? { onProgress: onScored } : {}) }),
    ]);
    // Heard by `commit`; a batch never committed (an earlier one failed) must not fail the process.
    work.catch(() => undefined);
    return { prepared, readDiagnostics, found, work };
  }

  /** Add a begun batch to the analysis (after every batch begun before it). */
  async commit(batch: BegunBatch): Promise<void> {
    this.addDiagnostics(batch.readDiagnostics);
    for (const d of batch.found) this.keepDiagnostic(d);
    const [{ outcomes, ungraded, agreement }, scorings] = await batch.work.catch((error: unknown) => {
      // Named like a diagnostic: the file and the line where the failed rollouts start.
      throw error instanceof CheckerWorkerError ? new Error(`${this.options.fileName}:${error.line ?? 1}: ${error.message}`) : error;
    });
    const prepared = batch.prepared;
    for (const u of ungraded) this.diagnostics.push(notGraded(u));
    this.agreement.add(agreement);
    for (let i = 0; i < prepared.length; i++) {
      const p = prepared[i] as PreparedRollout;
      const scoring = scorings[i] as StepScoring;
      if (scoring.kind === 'scored' && scoring.notDecided) for (const n of scoring.notDecided) this.diagnostics.push(notChecked(p.rollout, n));
      this.add(p, outcomes[i] as Outcome, scoring);
    }
  }

  private add(p: PreparedRollout, outcome: Outcome, scoring: StepScoring): void {
    const r = p.rollout;
    const scored = scoring.kind === 'scored';
    this.table.add({
      line: r.line,
      index: r.index,
      item: r.item,
      format: r.format,
      group: r.group,
      prompt: r.prompt,
      response: this.keepText ? r.response : '',
      responseChars: r.response.length,
      gold: r.gold,
      steps: p.steps,
      rawSteps: p.rawSteps,
      stepScores: scored ? scoring.scores : NO_SCORES,
      // Empty when the scorer had nothing to say about any step (file scores).
      stepNotes: scored ? (scoring.notes ?? NO_NOTES) : NO_NOTES,
      scorer: scoring.scorer,
      unscoredReason: scored ? null : scoring.reason,
      isScored: scored,
      outcome,
      stepLabels: r.stepLabels ?? null,
      questionReading: questionReadingOf(r.promptReading ?? PLAIN_PROMPT),
      promptReading: r.promptReading,
      // Read only where the texts are kept: the response's turns show in the panel and the Rollout View.
      responseTurns: this.keepText ? responseTurnsOf(r) : null,
      outcomeField: r.outcomeField ?? null,
      rewards: r.rewards ?? null,
    }, { texts: this.keepText, offsets: this.rawOffsets });
  }

  /** Decide every group and build the report. */
  async finish(): Promise<FileAnalysis> {
    for (const { diagnostic, repeats } of this.fileNotes.values()) {
      if (repeats > 0) diagnostic.message += ` (and ${repeats} more line${repeats === 1 ? '' : 's'} alike)`;
    }
    const table = this.table;
    decideTable(table, this.settings);
    if (this.firstLine !== null) for (const d of this.presence.diagnostics(this.firstLine)) this.diagnostics.push(d);
    const report = reportOfTable(table, this.unreadable);
    if (this.agreement.graded > 0) report.gradingAgreement = { graded: this.agreement.graded, of: this.agreement.eligible, agrees: this.agreement.agrees, disagreeing: [...this.agreement.disagreeing] };
    const info: ScorerInfo = this.chain.info;
    await this.chain.dispose();
    await this.cas.release();
    const withFacts = this.options.facts ?? true;
    const settings = this.settings;
    const rows: AnalysedRows = {
      count: table.count,
      at: (row) => {
        const r = table.rollout(row);
        if (withFacts) writeRolloutFacts(r, r.decision.steps, settings);
        return r;
      },
      line: (row) => table.line(row),
      index: (row) => table.index(row),
      isKept: (row) => table.isKept(row),
      brief: (row, into) => table.brief(row, into),
      table,
    };
    return withRolloutList({ fileName: this.options.fileName, diagnostics: this.diagnostics, report, settings, scorer: { ...info }, rows });
  }
}

/**
 * The analysis with `rollouts` made from its rows on first use (the editor sends them all on; a
 * command that walks them uses `eachRollout`). Once made, the list is the analysis's rollouts and
 * the columns are let go.
 */
function withRolloutList(analysis: Omit<FileAnalysis, 'rollouts'>): FileAnalysis {
  let list: AnalysedRollout[] | null = null;
  const result = analysis as FileAnalysis;
  Object.defineProperty(result, 'rollouts', {
    enumerable: true,
    configurable: true,
    get(): AnalysedRollout[] {
      if (list === null) {
        list = [...eachRollout({ rollouts: [], ...(result.rows ? { rows: result.rows } : {}) })];
        delete result.rows;
      }
      return list;
    },
    set(value: AnalysedRollout[]) {
      list = value;
      delete result.rows;
    },
  });
  return result;
}
