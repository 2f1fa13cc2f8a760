/**
 * The Rollout Explorer's view of an analysis: it reads the analysis's own column store
 * (`table/rolloutTable.ts`), row by row, and keeps only what the Explorer derives and the store
 * does not hold: per row one byte (the false-positive rules that fired on a correct answer,
 * whether it is suspected, whether its line holds other rollouts), the strength of each suspected
 * row, the reward columns (the outcome's value and the record's reward fields merged by name,
 * `rewardValues.ts`), and per group its readable id. Filters and sorts read the columns, never a
 * rollout, so a million rows answer in milliseconds; a page of rows is made on demand.
 */
import type { AnalysedRollout, FileAnalysis } from '../report/fileAnalysis';
import type { OutcomeKind, ReasonCode } from '../model';
import type { RolloutPlaces } from './selection';
import type { ExplorerRow, RunColumns } from './explorerRow';
import { figuresOf, type ColumnReader } from './explorerColumns';
import { FALSE_POSITIVE_RULES } from '../profSettings';
import { RULE_BITS, SUSPECTED_BIT } from '../rules/falsePositiveMask';
import { OUTCOME_KINDS, RolloutTable, REASONS } from '../table/rolloutTable';
import { groupIds } from '../report/groupIds';
import { REASON_LABELS } from '../presentation/reasonWords';
import { capText } from '../presentation/capText';
import { questionNamer } from '../presentation/groupNames';
import { rewardValuesOf } from './rewardValues';
import { MAX_REWARD_FIELDS } from '../formats/rewardFields';
import { FLAGGED_IDS } from '../health/rolloutFlags';

/** Outcomes in the order the explorer sorts them: the order the store numbers them. */
export const OUTCOME_ORDER: readonly OutcomeKind[] = OUTCOME_KINDS;
/** Reason codes in the order the explorer sorts them (kept first, not ranked last). */
export const REASON_ORDER = Object.keys(REASON_LABELS) as ReasonCode[];
/** A stored reason number (`REASONS`) → its place in `REASON_ORDER`; a row not yet decided reads as not ranked, no scores. */
const REASON_RANK = REASONS.map((r) => Math.max(0, REASON_ORDER.indexOf(r)));
const UNDECIDED_RANK = REASON_ORDER.indexOf('not-ranked-no-scores');

/**
 * A row's mark: bits 0–2 the false-positive rules that fired (`RULE_BITS`), then suspected, then a
 * shared line, then (bits 5–6) the outcome's kind, which filters read row after row.
 */
const RULES_FIRED = RULE_BITS['prof-dropped'] | RULE_BITS['weak-step'] | RULE_BITS['bottom-half'];
const SUSPECTED = SUSPECTED_BIT;
/** The rollout's line holds other rollouts too (a grouped line): its place names the response. */
const SHARED_LINE = 16;
const OUTCOME_SHIFT = 5;

/** What the table is built from: an analysis (its columns or its list of rollouts). */
export type ExplorerInput = Pick<FileAnalysis, 'rollouts' | 'rows'>;

/** The words of a flagged row: its evidence line (null when no rule fired). */
export type EvidenceOf = (row: number) => string | null;

/**
 * The most reward columns a table holds, first named first: twice what one rollout may carry
 * (`MAX_REWARD_FIELDS`), as a run's reward functions are few and the same on every row.
 */
export const MAX_REWARD_COLUMNS = 2 * MAX_REWARD_FIELDS;

/** What a view is made of besides the store: the rows it covers, its groups' ids and names, its rows' evidence. */
export interface ExplorerViewParts {
  /** Rows 0 … count − 1 of the store (a run's store grows past a view made earlier). */
  count: number;
  /** Readable group ids by group number. */
  groupIds: string[];
  nameQuestion: (question: string) => string;
  evidenceOf: EvidenceOf;
  run?: RunColumns;
}

/** The explorer's view of one analysis's columns (row = rollout id), in file order. */
export class ExplorerTable implements RolloutPlaces, ColumnReader {
  readonly count: number;
  /** Readable group ids by group number. */
  readonly groupIds: string[];
  /** Names a group's question (its name, as the analysis's `groupNames`). */
  readonly nameQuestion: (question: string) => string;
  /** A run's step, file and health columns; null for one file's table. */
  readonly run: RunColumns | null;
  /**
   * One column per reward name, in order of first appearance; NaN where a rollout has none. At
   * most MAX_REWARD_COLUMNS: a file whose rows each name another reward would otherwise make one
   * column of the whole table's length per row (40,000 rows: 12.6 GB).
   */
  readonly rewards = new Map<string, Float64Array>();
  /** Reward names seen past MAX_REWARD_COLUMNS (their values are not shown). */
  readonly rewardsLeftOut = new Set<string>();
  private readonly marks: Uint8Array;
  /** Strength of each row's evidence (NaN when not suspected), made when first read. */
  private strengths: Float64Array | null = null;
  /** Numbers of the columns kept once read (`NumberColumn.isKept`), by column name. */
  private readonly kept = new Map<string, Float64Array>();
  private readonly evidenceOf: EvidenceOf;

  constructor(readonly source: RolloutTable, parts: ExplorerViewParts) {
    this.count = parts.count;
    this.groupIds = parts.groupIds;
    this.nameQuestion = parts.nameQuestion;
    this.evidenceOf = parts.evidenceOf;
    this.run = parts.run ?? null;
    this.marks = new Uint8Array(this.count);
    this.markRows();
    this.fillRewards();
  }

  line(row: number): number {
    return this.source.line(row);
  }

  /** 0-based response index within the line. */
  index(row: number): number {
    return this.source.index(row);
  }

  /** The row's element of a JSON array file, or -1 for a JSONL line. */
  item(row: number): number {
    return this.source.item(row);
  }

  /** Group number, in order of first appearance. */
  group(row: number): number {
    return this.source.groupNumber(row);
  }

  /** The outcome's place in `OUTCOME_ORDER`. */
  outcome(row: number): number {
    return ((this.marks[row] as number) >>> OUTCOME_SHIFT) & 3;
  }

  /** The decision's reason, as its place in `REASON_ORDER`. */
  reason(row: number): number {
    const n = this.source.reasonNumber(row);
    return n === -1 ? UNDECIDED_RANK : (REASON_RANK[n] as number);
  }

  /** The bits of `FALSE_POSITIVE_RULES` that fired (a correct answer's; 0 for any other). */
  rulesFired(row: number): number {
    return (this.marks[row] as number) & RULES_FIRED;
  }

  isKept(row: number): boolean {
    return this.source.isKept(row);
  }

  isSuspected(row: number): boolean {
    return ((this.marks[row] as number) & SUSPECTED) !== 0;
  }

  isPenalised(row: number): boolean {
    return this.source.isPenalised(row);
  }

  isUnscored(row: number): boolean {
    return !this.source.isScored(row);
  }

  /** Strength of a suspected false positive; NaN when not suspected. */
  strength(row: number): number {
    this.strengths ??= this.readStrengths();
    return this.strengths[row] as number;
  }

  keptNumbers(name: string, read: (row: number) => number): Float64Array {
    let numbers = this.kept.get(name);
    if (!numbers) {
      numbers = new Float64Array(this.count);
      for (let row = 0; row < this.count; row++) numbers[row] = read(row);
      this.kept.set(name, numbers);
    }
    return numbers;
  }

  /** Each suspected row's strength: its verdict is made (a report needs none, so the store defers them). */
  private readStrengths(): Float64Array {
    const strengths = new Float64Array(this.count).fill(Number.NaN);
    for (let row = 0; row < this.count; row++) {
      if (!this.isSuspected(row)) continue;
      const strength = this.source.falsePositive(row).strength;
      if (strength) strengths[row] = strength.value;
    }
    return strengths;
  }

  /** The final answer extracted from the response, if one was looked for. */
  extracted(row: number): string | null {
    const e = this.source.outcome(row).extracted;
    return e === undefined || e === null ? null : e;
  }

  gold(row: number): string | null {
    return this.source.gold(row);
  }

  /** Each group's prompt (as its first rollout has it), by group number. */
  groupPrompt(group: number): string | undefined {
    return group < this.groupIds.length ? this.source.groupPrompt(group) : undefined;
  }

  /** Each group's prompt by group number, as a new list. */
  get groupPrompts(): string[] {
    return this.groupIds.map((_, g) => this.source.groupPrompt(g));
  }

  /** A group's name by its number; '' for a number the table does not have. */
  groupName(group: number): string {
    const question = this.groupPrompt(group);
    return question === undefined ? '' : this.nameQuestion(question);
  }

  /** The group number of a readable id; -1 when no group has it. */
  groupOfId(id: string): number {
    return this.groupIds.indexOf(id);
  }

  /** The row of rollout `id`, as a page sends it. */
  row(id: number): ExplorerRow {
    const s = this.source;
    const rewards: Record<string, number | null> = {};
    for (const [name, values] of this.rewards) rewards[name] = nullable(values[id] as number);
    const bits = this.rulesFired(id);
    const rules = FALSE_POSITIVE_RULES.filter((rule) => (bits & RULE_BITS[rule]) !== 0);
    const isScored = s.isScored(id);
    const weakestStep = isScored ? s.weakestStep(id) : -1;
    const evidence = bits !== 0 ? this.evidenceOf(id) : null;
    const unscoredReason = isScored ? null : s.unscoredReason(id);
    const extracted = this.extracted(id);
    const gold = this.gold(id);
    return {
      id,
      line: s.line(id),
      index: s.index(id),
      item: s.item(id) === -1 ? null : s.item(id),
      isSharedLine: ((this.marks[id] as number) & SHARED_LINE) !== 0,
      responsesOnLine: this.responsesOnLine(id),
      group: this.groupIds[s.groupNumber(id)] as string,
      groupName: this.groupName(s.groupNumber(id)),
      outcome: OUTCOME_ORDER[this.outcome(id)] as OutcomeKind,
      extracted: extracted === null ? null : capText(extracted),
      gold: gold === null ? null : capText(gold),
      steps: s.decidedSteps(id),
      meanScore: isScored ? nullable(s.meanStepScore(id)) : null,
      weakestScore: weakestStep === -1 ? null : s.stepScore(id, weakestStep),
      weakestStep: weakestStep === -1 ? null : weakestStep,
      consistency: nullable(s.decidedConsistency(id)),
      kept: s.isKept(id),
      reason: REASON_ORDER[this.reason(id)] as ReasonCode,
      suspectedFalsePositive: this.isSuspected(id),
      falsePositiveRules: rules,
      evidence: evidence === null ? null : capText(evidence),
      strength: nullable(this.strengths ? (this.strengths[id] as number) : this.isSuspected(id) ? (s.falsePositive(id).strength?.value ?? Number.NaN) : Number.NaN),
      penalised: s.isPenalised(id),
      unscored: !isScored,
      unscoredReason: unscoredReason === null ? null : capText(unscoredReason),
      responseChars: s.responseChars(id),
      rewards,
      figures: figuresOf(this, id),
      ...(this.run ? runFacts(id, this.run) : {}),
    };
  }

  /** The rollouts of a row's record: its neighbours in file order on the same line and item. */
  private responsesOnLine(id: number): number {
    if (((this.marks[id] as number) & SHARED_LINE) === 0) return 1;
    let first = id;
    let last = id;
    while (first > 0 && this.isSameRecord(first - 1, id)) first--;
    while (last + 1 < this.count && this.isSameRecord(last + 1, id)) last++;
    return last - first + 1;
  }

  private isSameRecord(a: number, b: number): boolean {
    const files = this.run?.file;
    return this.source.line(a) === this.source.line(b) && this.source.item(a) === this.source.item(b) && (!files || files[a] === files[b]);
  }

  /** Each row's mark: the rules fired on a correct answer (only a correct answer can be a false positive), and shared lines. */
  private markRows(): void {
    const s = this.source;
    const correct = OUTCOME_ORDER.indexOf('correct');
    for (let row = 0; row < this.count; row++) {
      const kind = s.outcomeKind(row);
      let mark = kind << OUTCOME_SHIFT;
      const mask = s.falsePositiveMask(row);
      if (mask !== 0 && kind === correct) {
        mark |= mask & (RULES_FIRED | SUSPECTED);
      }
      if (row > 0 && this.isSameRecord(row - 1, row)) {
        mark |= SHARED_LINE;
        this.marks[row - 1] = (this.marks[row - 1] as number) | SHARED_LINE;
      }
      this.marks[row] = mark | (this.marks[row] as number);
    }
  }

  /** The reward columns: read once per outcome when a row's record carries no reward fields of its own. */
  private fillRewards(): void {
    const s = this.source;
    const byOutcome = new Map<number, ReturnType<typeof rewardValuesOf>>();
    for (let row = 0; row < this.count; row++) {
      const fields = s.rewards(row);
      let values: ReturnType<typeof rewardValuesOf> | undefined;
      if (fields) values = rewardValuesOf({ outcome: s.outcome(row), outcomeField: s.outcomeField(row), rewards: fields });
      else {
        const n = s.outcomeNumber(row);
        values = byOutcome.get(n);
        if (!values) byOutcome.set(n, (values = rewardValuesOf({ outcome: s.outcome(row), outcomeField: s.outcomeField(row) })));
      }
      for (const { name, value } of values) {
        const column = this.rewardColumn(name);
        if (column) column[row] = value ?? Number.NaN;
      }
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
}

function runFacts(id: number, run: RunColumns): Pick<ExplorerRow, 'step' | 'file' | 'health'> {
  const bits = run.health[id] as number;
  return { step: run.step[id] as number, file: run.files[run.file[id] as number] as string, health: FLAGGED_IDS.filter((_, i) => bits & (1 << i)) };
}

function nullable(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

/**
 * The analysis's rollouts as columns, when it holds them only as a list (it was made so, or its
 * list was asked for and its columns let go): the one case where the Explorer fills a store.
 */
export function tableOfRollouts(rollouts: readonly AnalysedRollout[]): RolloutTable {
  const table = new RolloutTable();
  for (const r of rollouts) {
    const row = table.add(r, { texts: false, offsets: false });
    table.setDecision(row, r.decision, r.falsePositive);
  }
  return table;
}

/** A view's groups: each group's readable id, and its question named as the file names it. */
export function groupsOf(table: RolloutTable): Pick<ExplorerViewParts, 'groupIds' | 'nameQuestion'> {
  const questions = table.groupQuestions();
  const names = groupIds(questions);
  return { groupIds: questions.map((q) => names.get(q.group) as string), nameQuestion: questionNamer(questions.map((q) => q.question)) };
}

/**
 * The explorer's table of an analysis: a view of its columns when it holds them (no rollout is
 * made; evidence lines are worded when their row is shown), else of columns filled from its list.
 */
export function buildExplorerTable(analysis: ExplorerInput): ExplorerTable {
  const rows = analysis.rows;
  if (rows?.table) return new ExplorerTable(rows.table, { count: rows.count, ...groupsOf(rows.table), evidenceOf: (id) => rows.at(id).evidence });
  const list = analysis.rollouts;
  const table = tableOfRollouts(list);
  return new ExplorerTable(table, { count: table.count, ...groupsOf(table), evidenceOf: (id) => list[id]?.evidence ?? null });
}
