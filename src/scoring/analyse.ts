/**
 * The whole analysis: records → rollouts → steps → step scores (scorer chain) → outcomes (file,
 * else graded answer) → groups → PROF decisions → report. Records can be fed in batches as a file
 * streams in, so a large dump never needs to be held as text.
 */
import type { Decision, Diagnostic, NotDecided, Rollout, SourceRecord, Step, StepScoring } from '../core/model';
import type { CasService } from '../core/casService';
import type { AnalysedRollout, FileAnalysis } from '../core/analysis';
import { resolveSettings, validateSettings, type ProfSettings } from '../core/settings';
import { prepareRecordInto, type PrepareOptions, type PreparedRollout } from '../core/prepare';
import { decideAll, NOT_SUSPECTED, type FalsePositive, type GroupMember } from '../core/groups';
import { writeRolloutFacts } from '../core/presentation/rolloutFacts';
import { NO_LOW_STEPS } from '../core/presentation/stepFacts';
import { buildReport } from '../core/report';
import { readText } from '../core/reader';
import type { Scorer, ScorerInfo } from './scorer';
import type { ScorerChoice } from '../core/scorerChoice';
import { createScorerChain } from './chain';
import { OutcomeResolver, type UngradedAnswer } from './outcomes';
import type { AdaptContext } from '../core/formatsTrainers';
import { PLAIN_PROMPT, questionReadingOf } from '../core/transcript/prompt';
import { responseTurnsOf } from '../core/rolloutText';

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
  /** Where the algebra runs, for grading and the checker (default: the process's CAS worker). */
  cas?: CasService;
  /** What trainers' records need from outside the file (the tokenizer of token-id traces). */
  context?: AdaptContext;
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
  return r.format === 'grouped' ? `response ${r.index + 1}: ` : '';
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

/** Steps and notes of a rollout that keeps none: one frozen empty list, not one per rollout. */
const NO_STEPS = Object.freeze([]) as unknown as Step[];
const NO_NOTES = Object.freeze([]) as unknown as (string | null)[];
const NO_SCORES = Object.freeze([]) as unknown as (number | null)[];

/** Shared placeholders until finish() decides: no allocation per rollout for them. */
const PENDING_DECISION: Decision = Object.freeze({ id: -1, kept: false, reason: 'not-ranked-no-scores', steps: 0, score: null, consistency: null, penalised: false, rank: null });

/** Incremental analysis: feed records in batches, then `finish()`. */
export class Analyzer {
  readonly settings: ProfSettings;
  private readonly rollouts: AnalysedRollout[] = [];
  private readonly diagnostics: Diagnostic[] = [];
  private readonly chain: ReturnType<typeof createScorerChain>;
  private readonly outcomes: OutcomeResolver;
  private readonly keepText: boolean;
  private readonly rawOffsets: boolean;
  private readonly extractAnswers: boolean;
  private unreadable = 0;
  private readonly countOnly: ((r: Rollout) => boolean) | undefined;
  /** Groups seen so far: without texts, each group still keeps its first prompt for display. */
  private readonly seenGroups = new Set<string>();
  /** What the adapters get beside the records: a summary without facts shows no reward fields. */
  private readonly context: AdaptContext;
  /** The first diagnostic of each note about the whole file, and how many lines repeated it. */
  private readonly fileNotes = new Map<string, { diagnostic: Diagnostic; repeats: number }>();

  constructor(private readonly options: AnalyseOptions) {
    this.settings = resolveSettings(options.settings);
    const problems = validateSettings(this.settings);
    if (problems.length) throw new Error(`invalid settings: ${problems.join('; ')}`);
    this.chain = createScorerChain(options.scorer ?? 'auto', options.modelScorer, options.cas);
    this.outcomes = new OutcomeResolver(options.cas);
    this.keepText = options.keepText ?? true;
    this.rawOffsets = options.rawOffsets ?? true;
    this.extractAnswers = options.extractAnswers ?? this.keepText;
    this.context = options.facts === false ? { ...options.context, rewards: false } : (options.context ?? {});
    const choice = options.scorer ?? 'auto';
    // Without texts or offsets to keep, a rollout scored from its own file scores needs only its step count.
    const needsSteps = this.keepText || this.rawOffsets || !(choice === 'auto' || choice === 'file');
    this.countOnly = needsSteps ? undefined : (r: Rollout) => r.fileStepScores !== null;
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
    const prepared: PreparedRollout[] = [];
    const prepareOptions: PrepareOptions = { settings: this.settings, rawOffsets: this.rawOffsets, firstId: this.rollouts.length, countOnly: this.countOnly, checkStepCount: this.options.checkStepCounts ?? true, context: this.context };
    const found: Diagnostic[] = [];
    for (const record of records) if (prepareRecordInto(record, prepareOptions, prepared, found)) this.unreadable++;
    for (const d of found) this.keepDiagnostic(d);
    const rollouts = new Array<Rollout>(prepared.length);
    for (let i = 0; i < prepared.length; i++) rollouts[i] = (prepared[i] as PreparedRollout).rollout;
    const signal = this.options.signal;
    const [{ outcomes, ungraded }, scorings] = await Promise.all([
      this.outcomes.resolve(rollouts, { extractAlways: this.extractAnswers, ...(signal ? { signal } : {}) }),
      this.chain.score(prepared, { signal, ...(onScored ? { onProgress: onScored } : {}) }),
    ]);
    for (const u of ungraded) this.diagnostics.push(notGraded(u));
    for (let i = 0; i < prepared.length; i++) {
      const p = prepared[i] as PreparedRollout;
      const scoring = scorings[i] as StepScoring;
      if (scoring.kind === 'scored' && scoring.notDecided) for (const n of scoring.notDecided) this.diagnostics.push(notChecked(p.rollout, n));
      this.rollouts.push(this.toAnalysed(p, outcomes[i] as AnalysedRollout['outcome'], scoring));
    }
  }

  private toAnalysed(p: PreparedRollout, outcome: AnalysedRollout['outcome'], scoring: StepScoring): AnalysedRollout {
    const r = p.rollout;
    const scored = scoring.kind === 'scored';
    const isFirstOfGroup = !this.seenGroups.has(r.group);
    if (isFirstOfGroup) this.seenGroups.add(r.group);
    return {
      id: r.id,
      line: r.line,
      index: r.index,
      format: r.format,
      group: r.group,
      prompt: this.keepText || isFirstOfGroup ? r.prompt : '',
      response: this.keepText ? r.response : '',
      responseChars: r.response.length,
      gold: r.gold,
      steps: this.keepText ? p.steps : NO_STEPS,
      rawSteps: p.rawSteps,
      stepScores: scored ? scoring.scores : NO_SCORES,
      // Empty when the scorer had nothing to say about any step (file scores).
      stepNotes: scored ? (scoring.notes ?? NO_NOTES) : NO_NOTES,
      scorer: scoring.scorer,
      unscoredReason: scored ? null : scoring.reason,
      outcome,
      // Filled in by finish(), once every group is complete.
      decision: PENDING_DECISION,
      falsePositive: NOT_SUSPECTED,
      lowSteps: NO_LOW_STEPS as number[],
      firstLowStep: null,
      weakestStep: null,
      isScored: scored,
      evidence: null,
      stepLabels: r.stepLabels ?? null,
      questionReading: questionReadingOf(r.promptReading ?? PLAIN_PROMPT),
      // Set whether or not there is one: every rollout object keeps one shape.
      promptReading: this.keepText || isFirstOfGroup ? r.promptReading : undefined,
      responseTurns: this.keepText ? responseTurnsOf(r) : null,
      outcomeField: r.outcomeField ?? null,
      rewards: r.rewards ?? null,
    };
  }

  /** Decide every group and build the report. */
  async finish(): Promise<FileAnalysis> {
    for (const { diagnostic, repeats } of this.fileNotes.values()) {
      if (repeats > 0) diagnostic.message += ` (and ${repeats} more line${repeats === 1 ? '' : 's'} alike)`;
    }
    const rollouts = this.rollouts;
    const members = new Array<GroupMember>(rollouts.length);
    for (let i = 0; i < rollouts.length; i++) {
      const r = rollouts[i] as AnalysedRollout;
      const kind = r.outcome.kind;
      members[i] = { id: r.id, group: r.group, correct: kind === 'correct' ? true : kind === 'incorrect' ? false : null, nonBinary: kind === 'non-binary', scores: r.isScored ? r.stepScores : null };
    }
    const decided = decideAll(members, this.settings);
    const withFacts = this.options.facts ?? true;
    for (let i = 0; i < rollouts.length; i++) {
      const r = rollouts[i] as AnalysedRollout;
      r.decision = decided.decisions[i] as Decision;
      r.falsePositive = decided.falsePositives[i] as FalsePositive;
      if (withFacts) writeRolloutFacts(r, r.decision.steps, this.settings);
    }
    const report = buildReport(this.rollouts, this.unreadable);
    const info: ScorerInfo = this.chain.info;
    await this.chain.dispose();
    return { fileName: this.options.fileName, rollouts: this.rollouts, diagnostics: this.diagnostics, report, settings: this.settings, scorer: { ...info } };
  }
}
