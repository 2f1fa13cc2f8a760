/**
 * The analysed rollouts of a file held as columns (typed arrays and tables of distinct values)
 * rather than as an object graph per rollout. A summary object with its decision, outcome and
 * score arrays cost about 0.9 KB of heap per rollout whatever the rollout's size, so five million
 * tiny rollouts needed gigabytes; as columns a rollout costs a few dozen bytes plus 8 per step
 * score. Rollouts are made into the usual `AnalysedRollout` objects only when asked for, one at a
 * time (a report or filter that walks them) or all at once (the editor, which sends them on).
 */
import type { AnalysedRollout } from './analysedRollout';
import type { Decision, Outcome, ReasonCode, Step } from '../model';
import { REASON_CODES } from '../catalogWords';
import type { PromptReading, QuestionReading } from '../transcript/promptReading';
import type { Turn } from '../transcript/turns';
import type { FalsePositive } from '../rules/groups';
import { maskOf, type DeferredFalsePositives } from '../rules/falsePositiveMask';
import { NOT_SUSPECTED } from '../rules/groups';
import { NO_LOW_STEPS } from '../presentation/stepFacts';
import { Column, COLUMN_PAGE, Interner, SpanColumn } from './columns';
import { RolloutReadings } from './rolloutReadings';
import { SharedTexts } from './sharedTexts';

/** What one rollout adds to the table (its texts only when they are kept). */
export type TableRow = Pick<AnalysedRollout, 'line' | 'index' | 'item' | 'format' | 'group' | 'prompt' | 'response' | 'responseChars' | 'gold' | 'steps' | 'rawSteps' | 'scorer' | 'unscoredReason' | 'isScored' | 'outcome' | 'stepLabels'
  | 'questionReading' | 'promptReading' | 'responseTurns' | 'outcomeField' | 'rewards'> & {
  stepScores: readonly (number | null)[];
  stepNotes: readonly (string | null)[];
};

/**
 * Decision reasons by number, as the table stores them: PROF's first, then the other rules' keeps
 * and drops in catalog order (`REASON_CODES`, generated from the rules' declarations).
 */
export const REASONS: readonly ReasonCode[] = REASON_CODES;
const REASON_INDEX = new Map(REASONS.map((r, i) => [r, i]));

/** Outcome kinds in the order the table's code columns number them (`decisionColumns`, `outcomeKinds`). */
export const OUTCOME_KINDS = ['correct', 'incorrect', 'unknown', 'non-binary'] as const;

/** A row's flags (`DecisionColumns.flags`). */
export const IS_SCORED = 1;
export const IS_DECIDED = 2;
export const IS_KEPT = 4;
export const IS_PENALISED = 8;

/** See `RolloutTable.decisionColumns`. */
export interface DecisionColumns {
  groups: Int32Array;
  flags: Uint8Array;
  scoreStart: Int32Array;
  scoreCount: Int32Array;
  /** Every rollout's step scores end to end, by pages (`Column.pageList`): no copy of a long column. */
  scorePages: readonly Float64Array[];
  outcomeKinds: Uint8Array;
  /** A decision's reason (a number of `REASONS`), H, score and consistency (NaN for none) and rank (-1 for none). */
  reason: Uint8Array;
  steps: Int32Array;
  score: Float64Array;
  consistency: Float64Array;
  rank: Int32Array;
}

/** See `RolloutTable.reportPage`. */
export interface ReportPage {
  /** The page's first row, and its rows. */
  from: number;
  count: number;
  groups: Int32Array;
  flags: Uint8Array;
  reason: Uint8Array;
  steps: Int32Array;
  score: Float64Array;
  rank: Int32Array;
  outcomeIds: Int32Array;
  scorerIds: Int32Array;
  readingIds: Uint16Array;
}

/** Steps, notes and scores of a rollout that has none: shared frozen lists. */
const NO_STEPS = Object.freeze([]) as unknown as Step[];
const NO_NOTES = Object.freeze([]) as unknown as (string | null)[];
const NO_SCORES = Object.freeze([]) as unknown as (number | null)[];

/** A decision before the groups are decided: one shared placeholder. */
const PENDING_DECISION: Decision = Object.freeze({ id: -1, kept: false, reason: 'not-ranked-no-scores', steps: 0, score: null, consistency: null, penalised: false, rank: null });

/** Texts and their offsets, kept only when the analysis keeps texts (editor text); offsets alone are kept in `rawSpans`. */
interface RowTexts {
  prompt: string;
  response: string;
  steps: Step[];
  rawSteps: { start: number; end: number }[] | null;
  /** The prompt's turns and system prompt, and the response's turns (with the texts only). */
  promptReading: PromptReading | undefined;
  responseTurns: Turn[] | null;
}

/** The analysed rollouts of one file, in file order (a rollout's id is its row). */
export class RolloutTable {
  private readonly lines = new Column(Int32Array);
  private readonly indices = new Column(Int32Array);
  /** A JSON array element's index (-1 for a JSONL line). */
  private readonly items = new Column(Int32Array);
  private readonly groupIds = new Column(Int32Array);
  /** Outcome (and its field), format, question reading and reward fields of each row. */
  private readonly readings = new RolloutReadings();
  private readonly strings = new Interner<string>();
  private readonly scorerIds = new Column(Int32Array);
  private readonly reasonIds = new Column(Int32Array);
  private readonly goldIds = new Column(Int32Array);
  private readonly chars = new Column(Int32Array);
  private readonly scoreStart = new Column(Int32Array);
  private readonly scoreCount = new Column(Int32Array);
  /** Every rollout's step scores end to end; NaN for an unscored step. */
  private readonly scores = new Column(Float64Array);
  private readonly noteStart = new Column(Int32Array);
  private readonly noteCount = new Column(Int32Array);
  /** Notes end to end, as string ids (-1 for none); a rollout without notes has noteStart -1. */
  private readonly notes = new Column(Int32Array);
  private readonly flags = new Column(Uint8Array);
  private readonly decisionReason = new Column(Uint8Array);
  private readonly decisionSteps = new Column(Int32Array);
  private readonly decisionScore = new Column(Float64Array);
  private readonly decisionConsistency = new Column(Float64Array);
  private readonly decisionRank = new Column(Int32Array);
  /** A row's false-positive verdict where a rule fired: the verdict, or its number in `deferred`. */
  private readonly falsePositives = new Map<number, FalsePositive | number>();
  /** What the verdicts set by number are made from (`setDeferredFalsePositive`). */
  private deferred: DeferredFalsePositives | null = null;
  private readonly labels = new Map<number, (number | null)[]>();
  private readonly texts: (RowTexts | undefined)[] = [];
  /** Long texts repeated from row to row (a parquet dictionary's), kept once. */
  private readonly shared = new SharedTexts();
  /** Raw-line step offsets kept without the texts (the editor's file on disk), as columns; made on first use. */
  private rawSpans: SpanColumn | null = null;
  /** Each group's key, its first row and the prompt (and the prompt's turns) that row keeps. */
  readonly groups = new Interner<string>();
  private readonly groupPrompts: string[] = [];
  private readonly groupPromptReadings: (PromptReading | undefined)[] = [];
  private readonly groupFirstRows: number[] = [];

  get count(): number {
    return this.lines.length;
  }

  /**
   * Appends a rollout; returns its row (its id). `keep`: what of its texts and offsets to keep
   * (`texts`: prompt, response and steps; `offsets`: the steps' raw-line offsets).
   */
  add(row: TableRow, keep: { texts: boolean; offsets: boolean }): number {
    const at = this.count;
    const groupsBefore = this.groups.size;
    const group = this.groups.id(row.group, row.group);
    // Without texts, a group still keeps its first prompt for display.
    if (this.groups.size > groupsBefore) {
      this.groupPrompts.push(row.prompt);
      this.groupPromptReadings.push(row.promptReading);
      this.groupFirstRows.push(at);
    }
    this.lines.push(row.line);
    this.indices.push(row.index);
    this.items.push(row.item ?? -1);
    this.groupIds.push(group);
    this.readings.add(at, row);
    this.scorerIds.push(this.stringId(row.scorer, 'scorer'));
    this.reasonIds.push(row.unscoredReason === null ? -1 : this.stringId(row.unscoredReason, 'reason'));
    this.goldIds.push(row.gold === null ? -1 : this.stringId(row.gold, 'gold'));
    this.chars.push(row.responseChars);
    this.scoreStart.push(this.scores.length);
    this.scoreCount.push(row.stepScores.length);
    this.scores.pushAll(row.stepScores, Number.NaN);
    this.noteStart.push(row.stepNotes.length === 0 ? -1 : this.notes.length);
    this.noteCount.push(row.stepNotes.length);
    for (const n of row.stepNotes) this.notes.push(n === null ? -1 : this.strings.id(n, n));
    this.flags.push(row.isScored ? IS_SCORED : 0);
    this.decisionReason.push(0);
    this.decisionSteps.push(0);
    this.decisionRank.push(0);
    this.decisionScore.push(Number.NaN);
    this.decisionConsistency.push(Number.NaN);
    if (row.stepLabels) this.labels.set(at, row.stepLabels);
    if (keep.texts) {
      const response = this.shared.text(row.response);
      const steps = this.shared.steps(row.steps, row.response, response);
      this.texts[at] = { prompt: this.shared.text(row.prompt), response, steps, rawSteps: row.rawSteps, promptReading: row.promptReading, responseTurns: row.responseTurns };
      this.rawSpans?.add(null);
    } else if (keep.offsets || this.rawSpans) {
      // Only the offsets: two numbers a step in one column, not an object per step and per row.
      this.rawSpans ??= new SpanColumn(at);
      this.rawSpans.add(keep.offsets ? row.rawSteps : null);
    }
    return at;
  }

  /** The last string stored under each use, and its id: neighbouring rollouts mostly share scorer and gold. */
  private readonly last = { scorer: { text: '', id: -1 }, reason: { text: '', id: -1 }, gold: { text: '', id: -1 } };

  private stringId(text: string, use: keyof RolloutTable['last']): number {
    const last = this.last[use];
    if (last.id !== -1 && last.text === text) return last.id;
    last.text = text;
    last.id = this.strings.id(text, text);
    return last.id;
  }

  line(row: number): number {
    return this.lines.get(row);
  }

  /** The row's element of a JSON array file, or -1 for a JSONL line. */
  item(row: number): number {
    return this.items.get(row);
  }

  gold(row: number): string | null {
    const id = this.goldIds.get(row);
    return id === -1 ? null : this.strings.value(id);
  }

  responseChars(row: number): number {
    return this.chars.get(row);
  }

  /** The response text, or null when the table does not keep texts. */
  responseText(row: number): string | null {
    return this.texts[row]?.response ?? null;
  }

  unscoredReason(row: number): string | null {
    const id = this.reasonIds.get(row);
    return id === -1 ? null : this.strings.value(id);
  }

  /** The prompt of group number `group` (kept for its first row even when texts are not). */
  groupPrompt(group: number): string {
    return this.groupPrompts[group] as string;
  }

  /** Each group's key, its first row and the question that row asks, in file order. */
  groupQuestions(): { group: string; firstRow: number; question: string }[] {
    return this.groupPrompts.map((question, g) => ({ group: this.groups.value(g), firstRow: this.groupFirstRows[g] as number, question }));
  }

  index(row: number): number {
    return this.indices.get(row);
  }

  group(row: number): string {
    return this.groups.value(this.groupIds.get(row));
  }

  /** The row's group, as a number (groups are numbered in order of first appearance). */
  groupNumber(row: number): number {
    return this.groupIds.get(row);
  }

  outcome(row: number): Outcome {
    return this.readings.outcome(row);
  }

  /** The file's field the row's outcome was read from, when its format names one. */
  outcomeField(row: number): string | null {
    return this.readings.outcomeField(row);
  }

  /** The reward fields the row's record carries beside its outcome, or null. */
  rewards(row: number): AnalysedRollout['rewards'] {
    return this.readings.rewards(row);
  }

  format(row: number): AnalysedRollout['format'] {
    return this.readings.format(row);
  }

  questionReading(row: number): QuestionReading {
    return this.readings.questionReading(row);
  }

  scorer(row: number): string {
    return this.strings.value(this.scorerIds.get(row));
  }

  isScored(row: number): boolean {
    return (this.flags.get(row) & IS_SCORED) !== 0;
  }

  /** The step scores of a row, as a new list (null for an unscored step), or written into `into` (reused row after row). */
  stepScores(row: number, into?: (number | null)[]): (number | null)[] {
    const start = this.scoreStart.get(row);
    const count = this.scoreCount.get(row);
    const out = into ?? new Array<number | null>(count);
    out.length = count;
    for (let k = 0; k < count; k++) {
      const s = this.scores.get(start + k);
      out[k] = Number.isNaN(s) ? null : s;
    }
    return out;
  }

  private stepNotes(row: number): (string | null)[] {
    const start = this.noteStart.get(row);
    if (start === -1) return NO_NOTES;
    const count = this.noteCount.get(row);
    const out = new Array<string | null>(count);
    for (let k = 0; k < count; k++) {
      const id = this.notes.get(start + k);
      out[k] = id === -1 ? null : this.strings.value(id);
    }
    return out;
  }

  /** Records PROF's decision (and the false-positive verdict) of a row. */
  setDecision(row: number, d: Decision, fp: FalsePositive): void {
    let flags = (this.flags.get(row) & IS_SCORED) | IS_DECIDED;
    if (d.kept) flags |= IS_KEPT;
    if (d.penalised) flags |= IS_PENALISED;
    this.flags.set(row, flags);
    this.decisionReason.set(row, REASON_INDEX.get(d.reason) ?? 0);
    this.decisionSteps.set(row, d.steps);
    this.decisionScore.set(row, d.score ?? Number.NaN);
    this.decisionConsistency.set(row, d.consistency ?? Number.NaN);
    this.decisionRank.set(row, d.rank ?? -1);
    if (fp.rules.length > 0) this.falsePositives.set(row, fp);
    else this.falsePositives.delete(row);
  }

  /**
   * PROF's decisions as columns read and written in place, kept by `commitDecisionColumns` (valid
   * until the next `add` or the next call; an array may be longer than the table, rows past
   * `count` being room): what they are
   * computed from — each row's group number, flags (`IS_SCORED`), step scores (NaN for an
   * unscored step) and outcome kind as an index of `kinds` — and where they go (the flags are
   * written too). False positives are set apart (`setFalsePositive`, `setDeferredFalsePositive`).
   */
  decisionColumns(kinds: readonly string[]): DecisionColumns {
    const c = this.columnsForDecisions;
    c.groups = this.groupIds.storage();
    c.flags = this.flags.storage();
    c.scoreStart = this.scoreStart.storage();
    c.scoreCount = this.scoreCount.storage();
    c.scorePages = this.scores.pageList();
    c.outcomeKinds = this.readings.outcomeKindCodes(kinds);
    c.reason = this.decisionReason.storage();
    c.steps = this.decisionSteps.storage();
    c.score = this.decisionScore.storage();
    c.consistency = this.decisionConsistency.storage();
    c.rank = this.decisionRank.storage();
    return c;
  }

  private readonly columnsForDecisions: DecisionColumns = {
    groups: new Int32Array(0), flags: new Uint8Array(0), scoreStart: new Int32Array(0), scoreCount: new Int32Array(0), scorePages: [],
    outcomeKinds: new Uint8Array(0), reason: new Uint8Array(0), steps: new Int32Array(0), score: new Float64Array(0), consistency: new Float64Array(0), rank: new Int32Array(0),
  };

  /**
   * What the file report counts, page `p` of the columns (rows `p × COLUMN_PAGE` on, arrays
   * indexed from the page's first row; the pages themselves, valid until the next `add`): each
   * row's group number, flags, decision (reason, H, score, rank: NaN and -1 for none), outcome
   * number (`outcomeKinds`), scorer number (`scorerLabel`) and reading number (rows of one number
   * share format and question reading, except `READING_BY_ROW`).
   */
  reportPage(p: number): ReportPage {
    const from = p * COLUMN_PAGE;
    const ids = this.readings.idPages(p);
    return {
      from, count: Math.max(0, Math.min(COLUMN_PAGE, this.count - from)), groups: this.groupIds.page(p), flags: this.flags.page(p), reason: this.decisionReason.page(p),
      steps: this.decisionSteps.page(p), score: this.decisionScore.page(p), rank: this.decisionRank.page(p), outcomeIds: ids.outcomeIds, scorerIds: this.scorerIds.page(p), readingIds: ids.readingIds,
    };
  }

  /** Each outcome number's kind, as its index in `kinds` (`reportPage().outcomeIds`). */
  outcomeKinds(kinds: readonly string[]): Uint8Array {
    return this.readings.outcomeKindsById(kinds);
  }

  /** The scorer label of number `id` (`reportColumns().scorerIds`). */
  scorerLabel(id: number): string {
    return this.strings.value(id);
  }

  /** Keeps what was written into `decisionColumns`' arrays (a column of several pages gave a copy). */
  commitDecisionColumns(c: DecisionColumns): void {
    this.flags.writeBack(c.flags);
    this.decisionReason.writeBack(c.reason);
    this.decisionSteps.writeBack(c.steps);
    this.decisionScore.writeBack(c.score);
    this.decisionConsistency.writeBack(c.consistency);
    this.decisionRank.writeBack(c.rank);
  }

  /** A row's false-positive verdict, set apart from `decisionColumns` (only where a rule fired). */
  setFalsePositive(row: number, fp: FalsePositive): void {
    if (fp.rules.length > 0) this.falsePositives.set(row, fp);
  }

  /**
   * A row's false-positive verdict as number `at` of `deferred`, made when it is first asked for
   * (`falsePositive`): a report counts the rules that fired (`falsePositiveMask`) and needs none.
   */
  setDeferredFalsePositive(row: number, deferred: DeferredFalsePositives, at: number): void {
    this.deferred = deferred;
    this.falsePositives.set(row, at);
  }

  /** Forgets every false-positive verdict (before the groups are decided again). */
  clearFalsePositives(): void {
    this.falsePositives.clear();
    this.deferred = null;
  }

  /** The rules that fired for a row (`RULE_BITS`), with `SUSPECTED_BIT` when a selected one did; 0 for none. */
  falsePositiveMask(row: number): number {
    const fp = this.falsePositives.get(row);
    if (fp === undefined) return 0;
    if (typeof fp === 'number') return (this.deferred as DeferredFalsePositives).mask(fp);
    return maskOf(fp);
  }

  isKept(row: number): boolean {
    return (this.flags.get(row) & IS_KEPT) !== 0;
  }

  isPenalised(row: number): boolean {
    return (this.flags.get(row) & IS_PENALISED) !== 0;
  }

  /** A row's PROF reason as its number in `REASONS`; -1 until the groups are decided. */
  reasonNumber(row: number): number {
    return (this.flags.get(row) & IS_DECIDED) === 0 ? -1 : this.decisionReason.get(row);
  }

  /** H, the steps a row's decision covers (0 until decided). */
  decidedSteps(row: number): number {
    return (this.flags.get(row) & IS_DECIDED) === 0 ? 0 : this.decisionSteps.get(row);
  }

  /** A row's consistency (NaN for none, and until decided). */
  decidedConsistency(row: number): number {
    return (this.flags.get(row) & IS_DECIDED) === 0 ? Number.NaN : this.decisionConsistency.get(row);
  }

  /** Each outcome number's kind as its index in `OUTCOME_KINDS`, extended as outcomes are added. */
  private kindOfOutcome: Uint8Array = new Uint8Array(0);

  /** A row's outcome kind as its index in `OUTCOME_KINDS`. */
  outcomeKind(row: number): number {
    const id = this.readings.outcomeNumber(row);
    if (id >= this.kindOfOutcome.length) this.kindOfOutcome = this.readings.outcomeKindsById(OUTCOME_KINDS);
    return this.kindOfOutcome[id] as number;
  }

  /** A row's outcome number: rows of one number share the outcome (`outcomeOfNumber`). */
  outcomeNumber(row: number): number {
    return this.readings.outcomeNumber(row);
  }

  outcomeOfNumber(id: number): Outcome {
    return this.readings.outcomeOfNumber(id);
  }

  /** Distinct outcomes stored (outcome numbers run 0 … this − 1). */
  get outcomeNumbers(): number {
    return this.readings.outcomeNumbers;
  }

  /** A row's gold as a string number (`stringOf`), -1 for none. */
  goldNumber(row: number): number {
    return this.goldIds.get(row);
  }

  /** Distinct strings stored (string numbers run 0 … this − 1). */
  get stringNumbers(): number {
    return this.strings.size;
  }

  stringOf(id: number): string {
    return this.strings.value(id);
  }

  /** Mean of a row's scored steps (unscored steps left out); NaN when none has a score. */
  meanStepScore(row: number): number {
    const start = this.scoreStart.get(row);
    const end = start + this.scoreCount.get(row);
    let sum = 0;
    let count = 0;
    for (let k = start; k < end; k++) {
      const s = this.scores.get(k);
      if (!Number.isFinite(s)) continue;
      sum += s;
      count++;
    }
    return count === 0 ? Number.NaN : sum / count;
  }

  /** The 0-based step of a row's lowest score (the first, on a tie); -1 when none has a score. */
  weakestStep(row: number): number {
    const start = this.scoreStart.get(row);
    const count = this.scoreCount.get(row);
    let step = -1;
    let weakest = 0;
    for (let k = 0; k < count; k++) {
      const s = this.scores.get(start + k);
      if (Number.isFinite(s) && (step === -1 || s < weakest)) {
        step = k;
        weakest = s;
      }
    }
    return step;
  }

  /** Step `step`'s score of a row (NaN for an unscored step). */
  stepScore(row: number, step: number): number {
    return this.scores.get(this.scoreStart.get(row) + step);
  }

  /** PROF's decision of a row (a placeholder until the groups are decided), as a new object or written into `into`. */
  decision(row: number, into?: Decision): Decision {
    const flags = this.flags.get(row);
    if ((flags & IS_DECIDED) === 0) return PENDING_DECISION;
    const score = this.decisionScore.get(row);
    const consistency = this.decisionConsistency.get(row);
    const rank = this.decisionRank.get(row);
    const d = into ?? ({} as Decision);
    d.id = row;
    d.kept = (flags & IS_KEPT) !== 0;
    d.reason = REASONS[this.decisionReason.get(row)] as ReasonCode;
    d.steps = this.decisionSteps.get(row);
    d.score = Number.isNaN(score) ? null : score;
    d.consistency = Number.isNaN(consistency) ? null : consistency;
    d.penalised = (flags & IS_PENALISED) !== 0;
    d.rank = rank === -1 ? null : rank;
    return d;
  }

  falsePositive(row: number): FalsePositive {
    const fp = this.falsePositives.get(row);
    if (fp === undefined) return NOT_SUSPECTED;
    if (typeof fp !== 'number') return fp;
    // Made once, then kept: every caller gets the same verdict object, as when it was made at once.
    const made = (this.deferred as DeferredFalsePositives).make(fp);
    this.falsePositives.set(row, made);
    return made;
  }

  /** A row's group, outcome, decision and response length, written into `into`. */
  brief<T extends { group: string; outcome: Outcome; decision: Decision; responseChars: number }>(row: number, into: T): T {
    into.group = this.group(row);
    into.outcome = this.outcome(row);
    into.decision = this.decision(row);
    into.responseChars = this.chars.get(row);
    return into;
  }

  /** The row as an `AnalysedRollout` (a new object), facts not yet derived. */
  rollout(row: number): AnalysedRollout {
    const texts = this.texts[row];
    const groupNumber = this.groupIds.get(row);
    const isFirstOfGroup = this.groupFirstRows[groupNumber] === row;
    const gold = this.goldIds.get(row);
    const reason = this.reasonIds.get(row);
    const isScored = this.isScored(row);
    return {
      id: row,
      line: this.lines.get(row),
      index: this.indices.get(row),
      item: this.items.get(row) === -1 ? undefined : this.items.get(row),
      format: this.readings.format(row),
      group: this.groups.value(groupNumber),
      prompt: texts?.prompt ?? (isFirstOfGroup ? (this.groupPrompts[groupNumber] as string) : ''),
      response: texts ? texts.response : '',
      responseChars: this.chars.get(row),
      gold: gold === -1 ? null : this.strings.value(gold),
      steps: texts ? texts.steps : NO_STEPS,
      rawSteps: texts ? texts.rawSteps : (this.rawSpans?.spans(row) ?? null),
      stepScores: isScored ? this.stepScores(row) : NO_SCORES,
      stepNotes: this.stepNotes(row),
      scorer: this.scorer(row),
      unscoredReason: reason === -1 ? null : this.strings.value(reason),
      outcome: this.outcome(row),
      decision: this.decision(row),
      falsePositive: this.falsePositive(row),
      lowSteps: NO_LOW_STEPS as number[],
      firstLowStep: null,
      weakestStep: null,
      isScored,
      evidence: null,
      stepLabels: this.labels.get(row) ?? null,
      questionReading: this.readings.questionReading(row),
      // Set whether or not there is one: every rollout object keeps one shape.
      promptReading: texts?.promptReading ?? (isFirstOfGroup ? this.groupPromptReadings[groupNumber] : undefined),
      responseTurns: texts ? texts.responseTurns : null,
      outcomeField: this.readings.outcomeField(row),
      rewards: this.readings.rewards(row),
    };
  }
}

