/**
 * The Rollout Explorer's view of an analysis: every figure a row shows, one typed array per column
 * (a few dozen bytes per rollout), built once when the analysis is done. Filters and sorts read
 * these arrays, never the rollouts, so a million rows answer in milliseconds; a page of rows is
 * made from them on demand.
 */
import type { AnalysedRollout, FileAnalysis } from '../report/fileAnalysis';
import type { OutcomeKind, ReasonCode } from '../model';
import type { FalsePositiveRule } from '../profSettings';
import { FALSE_POSITIVE_RULES } from '../profSettings';
import { NOT_SUSPECTED } from '../rules/groups';
import { Interner } from '../table/columns';
import { eachRollout, rolloutCount } from '../report/fileAnalysis';
import { groupIds } from '../lines/decisionLines';
import { REASON_LABELS } from '../presentation/reasonWords';
import { scoreSummary, weakestStepOf } from '../presentation/stepFacts';
import { capText } from '../presentation/capText';
import { questionNamer } from '../presentation/groupNames';
import { rewardValuesOf, type RewardSource } from './rewardValues';
import { MAX_REWARD_FIELDS } from '../formats/rewardFields';
import { FLAGGED_IDS, type FlaggedId } from '../health/rolloutFlags';

/** Outcomes in the order the explorer sorts them. */
export const OUTCOME_ORDER: readonly OutcomeKind[] = ['correct', 'incorrect', 'unknown', 'non-binary'];
/** Reason codes in the order the explorer sorts them (kept first, not ranked last). */
export const REASON_ORDER = Object.keys(REASON_LABELS) as ReasonCode[];

const KEPT = 1;
const SUSPECTED = 2;
const PENALISED = 4;
const UNSCORED = 8;
/** The rollout's line holds other rollouts too (a grouped line): its place names the response. */
const SHARED_LINE = 16;

/** One row of the explorer, JSON-plain: what a page sends to the view. */
export interface ExplorerRow {
  /** The rollout's id in its analysis (its row). */
  id: number;
  line: number;
  /** 0-based response index within the line. */
  index: number;
  /** 0-based element of a JSON array file, or null for JSONL. */
  item: number | null;
  /** The line holds several rollouts (a grouped line), so its place names the response. */
  isSharedLine: boolean;
  /** How many rollouts the row's line (or array item) holds: 1 for a flat record. */
  responsesOnLine: number;
  /** The readable group id (the file's uid, else g1, g2 … in order of first appearance). */
  group: string;
  /** The group's name: its question without the instruction every group of the file shares. */
  groupName?: string;
  outcome: OutcomeKind;
  /** The final answer extracted from the response (capped for display), if one was looked for. */
  extracted: string | null;
  gold: string | null;
  /** H, the number of steps the scores cover. */
  steps: number;
  meanScore: number | null;
  weakestScore: number | null;
  /** 0-based step of the weakest score. */
  weakestStep: number | null;
  consistency: number | null;
  kept: boolean;
  reason: ReasonCode;
  suspectedFalsePositive: boolean;
  /** The false-positive rules that fired (all of them, as the decision lines list them). */
  falsePositiveRules: FalsePositiveRule[];
  /** The evidence line of a flag, in words; null when no rule fired. */
  evidence: string | null;
  /** How strongly the evidence speaks (what flags are ranked by); null when not suspected. */
  strength: number | null;
  penalised: boolean;
  /** No scorer could score it (it is then not ranked). */
  unscored: boolean;
  unscoredReason: string | null;
  responseChars: number;
  /** Every reward column of the file: its value for this rollout (null when it has none). */
  rewards: Record<string, number | null>;
  /** In a run's table: the training step, the step file the row came from, and the health detectors it shows. */
  step?: number;
  file?: string;
  health?: FlaggedId[];
}

/**
 * A run's columns (`runTable.ts`): each row's training step, its step file (an index into
 * `files`) and the health detectors it shows (bit i: `FLAGGED_IDS[i]`).
 */
export interface RunColumns {
  step: Int32Array;
  file: Int32Array;
  files: string[];
  health: Uint8Array;
}

/** What the table is built from: an analysis (its columns or its list of rollouts). */
export type ExplorerInput = Pick<FileAnalysis, 'rollouts' | 'rows'>;

/** What the table reads of one rollout: an analysed rollout has it all, and so does one row of columns. */
type RowFigures = Pick<AnalysedRollout, 'line' | 'index' | 'item' | 'gold' | 'decision' | 'isScored' | 'stepScores' | 'falsePositive' | 'responseChars' | 'prompt'> & RewardSource;

/** Texts kept only where a rollout has them: the evidence line and why it was not scored. */
type RowWords = Pick<AnalysedRollout, 'evidence' | 'unscoredReason'>;

/**
 * The most reward columns a table holds, first named first: twice what one rollout may carry
 * (`MAX_REWARD_FIELDS`), as a run's reward functions are few and the same on every row.
 */
export const MAX_REWARD_COLUMNS = 2 * MAX_REWARD_FIELDS;

/** The explorer's columns of one analysis, in file order (row = rollout id). */
export class ExplorerTable {
  readonly count: number;
  readonly line: Int32Array;
  readonly index: Int32Array;
  readonly item: Int32Array;
  /** Group number, in order of first appearance. */
  readonly group: Int32Array;
  readonly outcome: Uint8Array;
  /** String ids into `strings` (-1 for none). */
  readonly extracted: Int32Array;
  readonly gold: Int32Array;
  readonly steps: Int32Array;
  /** NaN where there is no number. */
  readonly meanScore: Float64Array;
  readonly weakestScore: Float64Array;
  readonly weakestStep: Int32Array;
  readonly consistency: Float64Array;
  readonly reason: Uint8Array;
  readonly flags: Uint8Array;
  /** Strength of a suspected false positive; NaN when not suspected. */
  readonly strength: Float64Array;
  /** Bit i set: FALSE_POSITIVE_RULES[i] fired. */
  readonly rules: Uint8Array;
  readonly responseChars: Int32Array;
  /**
   * One column per reward name, in order of first appearance; NaN where a rollout has none. At
   * most MAX_REWARD_COLUMNS: a file whose rows each name another reward would otherwise make one
   * column of the whole table's length per row (40,000 rows: 12.6 GB).
   */
  readonly rewards = new Map<string, Float64Array>();
  /** Reward names seen past MAX_REWARD_COLUMNS (their values are not shown). */
  readonly rewardsLeftOut = new Set<string>();
  /** Readable group ids by group number. */
  readonly groupIds: string[] = [];
  readonly strings = new Interner<string>();
  /** Each group's prompt (as its first rollout has it), by group number. */
  readonly groupPrompts: string[] = [];
  private readonly evidence = new Map<number, string>();
  private readonly unscoredReasons = new Map<number, string>();
  /** Names a group's question (its name, as the analysis's `groupNames`); set when the table is built. */
  nameQuestion: (question: string) => string = (question) => question;
  /** Words made when a row is shown (an analysis held as columns words its evidence on demand). */
  wordsOf: ((id: number) => RowWords) | null = null;
  /** A run's step, file and health columns; null for one file's table. */
  run: RunColumns | null = null;

  constructor(count: number) {
    this.count = count;
    this.line = new Int32Array(count);
    this.index = new Int32Array(count);
    this.item = new Int32Array(count);
    this.group = new Int32Array(count);
    this.outcome = new Uint8Array(count);
    this.extracted = new Int32Array(count);
    this.gold = new Int32Array(count);
    this.steps = new Int32Array(count);
    this.meanScore = new Float64Array(count);
    this.weakestScore = new Float64Array(count);
    this.weakestStep = new Int32Array(count);
    this.consistency = new Float64Array(count);
    this.reason = new Uint8Array(count);
    this.flags = new Uint8Array(count);
    this.strength = new Float64Array(count);
    this.rules = new Uint8Array(count);
    this.responseChars = new Int32Array(count);
  }

  isKept(row: number): boolean {
    return ((this.flags[row] as number) & KEPT) !== 0;
  }

  isSuspected(row: number): boolean {
    return ((this.flags[row] as number) & SUSPECTED) !== 0;
  }

  isPenalised(row: number): boolean {
    return ((this.flags[row] as number) & PENALISED) !== 0;
  }

  isUnscored(row: number): boolean {
    return ((this.flags[row] as number) & UNSCORED) !== 0;
  }

  /** A stored string (capped for display), or null. */
  private text(id: number): string | null {
    return id === -1 ? null : capText(this.strings.value(id));
  }

  /** A group's name by its number; '' for a number the table does not have. */
  groupName(group: number): string {
    const question = this.groupPrompts[group];
    return question === undefined ? '' : this.nameQuestion(question);
  }

  /** The group number of a readable id; -1 when no group has it. */
  groupOfId(id: string): number {
    return this.groupIds.indexOf(id);
  }

  /** The row of rollout `id`, as a page sends it. */
  row(id: number): ExplorerRow {
    const rewards: Record<string, number | null> = {};
    for (const [name, values] of this.rewards) rewards[name] = nullable(values[id] as number);
    const rules: FalsePositiveRule[] = [];
    const bits = this.rules[id] as number;
    FALSE_POSITIVE_RULES.forEach((rule, i) => bits & (1 << i) && rules.push(rule));
    const weakestStep = this.weakestStep[id] as number;
    const words = this.wordsOf && (this.rules[id] !== 0 || this.isUnscored(id)) ? this.wordsOf(id) : null;
    const evidence = words ? (words.evidence ?? undefined) : this.evidence.get(id);
    const unscoredReason = words ? (words.unscoredReason ?? undefined) : this.unscoredReasons.get(id);
    return {
      id,
      line: this.line[id] as number,
      index: this.index[id] as number,
      item: this.item[id] === -1 ? null : (this.item[id] as number),
      isSharedLine: ((this.flags[id] as number) & SHARED_LINE) !== 0,
      responsesOnLine: this.responsesOnLine(id),
      group: this.groupIds[this.group[id] as number] as string,
      groupName: this.groupName(this.group[id] as number),
      outcome: OUTCOME_ORDER[this.outcome[id] as number] as OutcomeKind,
      extracted: this.text(this.extracted[id] as number),
      gold: this.text(this.gold[id] as number),
      steps: this.steps[id] as number,
      meanScore: nullable(this.meanScore[id] as number),
      weakestScore: nullable(this.weakestScore[id] as number),
      weakestStep: weakestStep === -1 ? null : weakestStep,
      consistency: nullable(this.consistency[id] as number),
      kept: this.isKept(id),
      reason: REASON_ORDER[this.reason[id] as number] as ReasonCode,
      suspectedFalsePositive: this.isSuspected(id),
      falsePositiveRules: rules,
      evidence: evidence === undefined ? null : capText(evidence),
      strength: nullable(this.strength[id] as number),
      penalised: this.isPenalised(id),
      unscored: this.isUnscored(id),
      unscoredReason: unscoredReason === undefined ? null : capText(unscoredReason),
      responseChars: this.responseChars[id] as number,
      rewards,
      ...(this.run ? this.runFacts(id, this.run) : {}),
    };
  }

  private runFacts(id: number, run: RunColumns): Pick<ExplorerRow, 'step' | 'file' | 'health'> {
    const bits = run.health[id] as number;
    return { step: run.step[id] as number, file: run.files[run.file[id] as number] as string, health: FLAGGED_IDS.filter((_, i) => bits & (1 << i)) };
  }

  /** The words a row shows, as they were made (a run's table keeps them from each file's table). */
  wordsAt(id: number): RowWords {
    if (this.wordsOf) return this.wordsOf(id);
    return { evidence: this.evidence.get(id) ?? null, unscoredReason: this.unscoredReasons.get(id) ?? null } as RowWords;
  }

  /** Keeps a row's words (evidence, why unscored) in this table. */
  setWords(at: number, words: RowWords): void {
    if (words.evidence) this.evidence.set(at, words.evidence);
    if (words.unscoredReason) this.unscoredReasons.set(at, words.unscoredReason);
  }

  /** Writes one rollout's figures into row `at` (`words`: its evidence and unscored reason, when kept here). */
  set(at: number, r: RowFigures, groupNumber: number, words: RowWords | null): void {
    this.line[at] = r.line;
    this.index[at] = r.index;
    this.item[at] = r.item ?? -1;
    this.group[at] = groupNumber;
    this.outcome[at] = OUTCOME_ORDER.indexOf(r.outcome.kind);
    this.extracted[at] = this.stringId(r.outcome.extracted);
    this.gold[at] = this.stringId(r.gold);
    const d = r.decision;
    this.steps[at] = d.steps;
    const summary = r.isScored ? scoreSummary(r.stepScores) : null;
    const weakest = r.isScored ? weakestStepOf(r.stepScores) : null;
    this.meanScore[at] = summary?.mean ?? Number.NaN;
    this.weakestScore[at] = weakest?.score ?? Number.NaN;
    this.weakestStep[at] = weakest?.step ?? -1;
    this.consistency[at] = d.consistency ?? Number.NaN;
    this.reason[at] = Math.max(0, REASON_ORDER.indexOf(d.reason));
    const fp = r.falsePositive;
    let flags = 0;
    if (d.kept) flags |= KEPT;
    if (fp.suspected) flags |= SUSPECTED;
    if (d.penalised) flags |= PENALISED;
    if (!r.isScored) flags |= UNSCORED;
    this.flags[at] = flags;
    this.strength[at] = fp.suspected && fp.strength ? fp.strength.value : Number.NaN;
    let bits = 0;
    for (const rule of fp.rules) bits |= 1 << FALSE_POSITIVE_RULES.indexOf(rule);
    this.rules[at] = bits;
    if (words?.evidence) this.evidence.set(at, words.evidence);
    if (words?.unscoredReason) this.unscoredReasons.set(at, words.unscoredReason);
    this.responseChars[at] = r.responseChars;
    for (const { name, value } of this.rewardsOf(r)) {
      const column = this.rewardColumn(name);
      if (column) column[at] = value ?? Number.NaN;
    }
  }

  /** Reward values, read once per distinct outcome when the rollout has no reward fields of its own. */
  private readonly rewardsByOutcome = new Map<RewardSource['outcome'], ReturnType<typeof rewardValuesOf>>();

  private rewardsOf(r: RowFigures): ReturnType<typeof rewardValuesOf> {
    if (r.rewards || r.outcomeField) return rewardValuesOf(r);
    let known = this.rewardsByOutcome.get(r.outcome);
    if (!known) {
      known = rewardValuesOf({ outcome: r.outcome });
      if (this.rewardsByOutcome.size < 4096) this.rewardsByOutcome.set(r.outcome, known);
    }
    return known;
  }

  /** Marks the rows of lines that hold more than one rollout. */
  /** The rollouts of a row's record: its neighbours in file order on the same line and item. */
  private responsesOnLine(id: number): number {
    if (((this.flags[id] as number) & SHARED_LINE) === 0) return 1;
    const files = this.run?.file;
    const isSame = (other: number): boolean => this.line[other] === this.line[id] && this.item[other] === this.item[id] && (!files || files[other] === files[id]);
    let first = id;
    let last = id;
    while (first > 0 && isSame(first - 1)) first--;
    while (last + 1 < this.count && isSame(last + 1)) last++;
    return last - first + 1;
  }

  markSharedLines(): void {
    for (let row = 1; row < this.count; row++) {
      if (this.line[row] !== this.line[row - 1] || this.item[row] !== this.item[row - 1]) continue;
      this.flags[row] = (this.flags[row] as number) | SHARED_LINE;
      this.flags[row - 1] = (this.flags[row - 1] as number) | SHARED_LINE;
    }
  }

  private rewardColumn(name: string): Float64Array | null {
    let column = this.rewards.get(name);
    if (!column) {
      if (this.rewards.size >= MAX_REWARD_COLUMNS) {
        this.rewardsLeftOut.add(name);
        return null;
      }
      column = new Float64Array(this.count).fill(Number.NaN);
      this.rewards.set(name, column);
    }
    return column;
  }

  private stringId(text: string | null | undefined): number {
    return text === null || text === undefined ? -1 : this.strings.id(text, text);
  }
}

function nullable(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

/**
 * The explorer's table of an analysis: one pass over its rollouts, read straight from the
 * analysis's columns when it holds them (no rollout is made; evidence lines are worded when their
 * row is shown), else from its list of rollouts.
 */
export function buildExplorerTable(analysis: ExplorerInput): ExplorerTable {
  const rows = analysis.rows;
  const columns = rows?.table;
  const table = new ExplorerTable(rolloutCount(analysis));
  const groupNumbers = new Map<string, number>();
  const groupKeys: { group: string }[] = [];
  const numberOf = (group: string, prompt: () => string): number => {
    let n = groupNumbers.get(group);
    if (n === undefined) {
      n = groupKeys.length;
      groupNumbers.set(group, n);
      groupKeys.push({ group });
      table.groupPrompts.push(prompt());
    }
    return n;
  };
  if (rows && columns) {
    // One object refilled row after row: the figures of a rollout, without the rollout.
    const decision = { id: 0, kept: false, reason: 'kept', steps: 0, score: null, consistency: null, penalised: false, rank: null } as RowFigures['decision'];
    const scores: (number | null)[] = [];
    const into = { line: 0, index: 0, item: undefined as number | undefined, gold: null as string | null, decision, isScored: false, stepScores: scores, falsePositive: NOT_SUSPECTED, responseChars: 0, prompt: '', outcome: null as unknown as RowFigures['outcome'], outcomeField: null as string | null, rewards: null as RowFigures['rewards'] };
    for (let row = 0; row < columns.count; row++) {
      const item = columns.item(row);
      into.line = columns.line(row);
      into.index = columns.index(row);
      into.item = item === -1 ? undefined : item;
      into.gold = columns.gold(row);
      into.outcome = columns.outcome(row);
      into.outcomeField = columns.outcomeField(row);
      into.rewards = columns.rewards(row);
      into.decision = columns.decision(row, decision);
      into.isScored = columns.isScored(row);
      if (into.isScored) columns.stepScores(row, scores);
      else scores.length = 0;
      // Only a correct answer can be a false positive.
      into.falsePositive = into.outcome.kind === 'correct' ? columns.falsePositive(row) : NOT_SUSPECTED;
      into.responseChars = columns.responseChars(row);
      // The columns number groups in order of first appearance too: a new number is a new group.
      const group = columns.groupNumber(row);
      if (group === groupKeys.length) numberOf(columns.group(row), () => columns.groupPrompt(group));
      table.set(row, into, group, null);
    }
    table.wordsOf = (id) => rows.at(id);
  } else {
    let at = 0;
    for (const r of eachRollout(analysis)) table.set(at++, r, numberOf(r.group, () => r.prompt), r);
  }
  const names = groupIds(groupKeys);
  for (const { group } of groupKeys) table.groupIds.push(names.get(group) as string);
  table.nameQuestion = questionNamer(table.groupPrompts);
  table.markSharedLines();
  return table;
}
