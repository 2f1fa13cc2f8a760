/**
 * How each rollout of a table was read, as columns beside the table's (see `RolloutTable`): its
 * outcome and the field the outcome came from, its format and how its question came out of the
 * prompt, and the reward fields its record carries beside the outcome. Most rollouts of a file
 * share an outcome, a format and a reading, so each distinct one is stored once and a rollout
 * holds its number; only the rollouts that carry reward fields pay for them (their row, a number
 * per field, and the fields' names once per distinct list).
 */
import type { FormatId, Outcome, RewardField } from '../model';
import type { QuestionReading } from '../transcript/promptReading';
import { Column, Interner } from './columns';

/** An outcome and the file's field it was read from (`score`, `accuracy_reward`, `reward > 0` …). */
interface OutcomeRead {
  outcome: Outcome;
  field: string | null;
}

/** A rollout's format and how its question was read. */
interface Reading {
  format: FormatId;
  questionReading: QuestionReading;
}

/** The names and kinds of a list of reward fields (`n` number, `b` boolean, `z` null). */
interface RewardShape {
  names: string[];
  kinds: string;
}

/** Past this many distinct readings (a hostile file's role words), a reading is kept by row instead. */
const MAX_READING_ID = 0xfffe;
/** A row's reading number when its reading is kept by row (`idPages`). */
export const READING_BY_ROW = 0xffff;

/** The readings of a table's rows, appended in row order. */
export class RolloutReadings {
  private readonly outcomes = new Interner<OutcomeRead>();
  private readonly outcomeIds = new Column(Int32Array);
  /** Outcomes seen by identity (the file's shared outcome objects), with the field they came with. */
  private readonly outcomeByObject = new Map<Outcome, { field: string | null; id: number }>();
  private readonly readings = new Interner<Reading>();
  private readonly readingIds = new Column(Uint16Array);
  private readonly readingsByRow = new Map<number, Reading>();
  /** The reading stored last: the rollouts of one prompt come together and share its objects. */
  private lastReading: { format: FormatId | null; questionReading: QuestionReading | null; id: number } = { format: null, questionReading: null, id: -1 };
  /** Rows that carry reward fields, ascending, with their list's shape and where its values start. */
  private readonly rewardRows = new Column(Int32Array);
  private readonly rewardShapeIds = new Column(Int32Array);
  private readonly rewardStarts = new Column(Int32Array);
  private readonly rewardValues = new Column(Float64Array);
  private readonly rewardShapes = new Interner<RewardShape>();

  /** Appends row `row`'s readings (rows are added in order). */
  add(row: number, r: { outcome: Outcome; outcomeField: string | null; format: FormatId; questionReading: QuestionReading; rewards: readonly RewardField[] | null }): void {
    this.outcomeIds.push(this.outcomeId(r.outcome, r.outcomeField));
    const reading = this.readingId(r.format, r.questionReading);
    this.readingIds.push(reading);
    if (reading === READING_BY_ROW) this.readingsByRow.set(row, { format: r.format, questionReading: r.questionReading });
    if (r.rewards && r.rewards.length > 0) this.addRewards(row, r.rewards);
  }

  outcome(row: number): Outcome {
    return this.outcomes.value(this.outcomeIds.get(row)).outcome;
  }

  /** The row's outcome number (rows of one number share the outcome object). */
  outcomeNumber(row: number): number {
    return this.outcomeIds.get(row);
  }

  outcomeOfNumber(id: number): Outcome {
    return this.outcomes.value(id).outcome;
  }

  /** Distinct outcomes stored. */
  get outcomeNumbers(): number {
    return this.outcomes.size;
  }

  /** Every row's outcome kind as its index in `kinds`, looked up once per distinct outcome. */
  outcomeKindCodes(kinds: readonly string[]): Uint8Array {
    const byId = this.outcomeKindsById(kinds);
    const ids = this.outcomeIds.storage();
    const codes = new Uint8Array(this.outcomeIds.length);
    for (let row = 0; row < codes.length; row++) codes[row] = byId[ids[row] as number] as number;
    return codes;
  }

  /**
   * Page `p` of the rows' outcome numbers and reading numbers (rows of one reading number share
   * format and question reading, except `READING_BY_ROW`), not copies (`Column.page`).
   */
  idPages(p: number): { outcomeIds: Int32Array; readingIds: Uint16Array } {
    return { outcomeIds: this.outcomeIds.page(p), readingIds: this.readingIds.page(p) };
  }

  /** Each outcome number's kind, as its index in `kinds`. */
  outcomeKindsById(kinds: readonly string[]): Uint8Array {
    const byId = new Uint8Array(this.outcomes.size);
    for (let id = 0; id < byId.length; id++) byId[id] = kinds.indexOf(this.outcomes.value(id).outcome.kind);
    return byId;
  }

  outcomeField(row: number): string | null {
    return this.outcomes.value(this.outcomeIds.get(row)).field;
  }

  format(row: number): FormatId {
    return this.reading(row).format;
  }

  questionReading(row: number): QuestionReading {
    return this.reading(row).questionReading;
  }

  /** The row's reward fields as a new list, or null when its record carries none. */
  rewards(row: number): RewardField[] | null {
    const at = this.rewardIndex(row);
    if (at === -1) return null;
    const shape = this.rewardShapes.value(this.rewardShapeIds.get(at));
    const start = this.rewardStarts.get(at);
    return shape.names.map((name, k) => {
      const value = this.rewardValues.get(start + k);
      const kind = shape.kinds[k];
      return { name, value: kind === 'z' ? null : kind === 'b' ? value === 1 : value };
    });
  }

  private reading(row: number): Reading {
    const id = this.readingIds.get(row);
    return id === READING_BY_ROW ? (this.readingsByRow.get(row) as Reading) : this.readings.value(id);
  }

  private outcomeId(outcome: Outcome, field: string | null): number {
    const known = this.outcomeByObject.get(outcome);
    if (known !== undefined && known.field === field) return known.id;
    const id = this.outcomes.id(`${outcomeKey(outcome)}\u0000${field ?? '\u0001'}`, { outcome, field });
    // Only the stored value is remembered by identity: a fresh object per rollout is not kept.
    if (this.outcomes.value(id).outcome === outcome) this.outcomeByObject.set(outcome, { field, id });
    return id;
  }

  private readingId(format: FormatId, questionReading: QuestionReading): number {
    const last = this.lastReading;
    if (last.format === format && last.questionReading === questionReading) return last.id;
    const key = `${format}\u0000${questionReading.kind}\u0000${questionReading.template ?? ''}\u0000${questionReading.hasSpecialTokens === undefined ? '' : Number(questionReading.hasSpecialTokens)}\u0000${questionReading.problem ?? ''}`;
    const isNew = this.readings.size <= MAX_READING_ID;
    const id = isNew ? this.readings.id(key, { format, questionReading }) : READING_BY_ROW;
    this.lastReading = { format, questionReading, id };
    return id;
  }

  private addRewards(row: number, rewards: readonly RewardField[]): void {
    let kinds = '';
    for (const r of rewards) kinds += r.value === null ? 'z' : typeof r.value === 'boolean' ? 'b' : 'n';
    const names = rewards.map((r) => r.name);
    this.rewardRows.push(row);
    this.rewardShapeIds.push(this.rewardShapes.id(`${kinds}\u0000${JSON.stringify(names)}`, { names, kinds }));
    this.rewardStarts.push(this.rewardValues.length);
    for (const r of rewards) this.rewardValues.push(r.value === null ? Number.NaN : Number(r.value));
  }

  /** Where `row` is among the rows with reward fields (a binary search: they were added in order), or -1. */
  private rewardIndex(row: number): number {
    let lo = 0;
    let hi = this.rewardRows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.rewardRows.get(mid);
      if (at === row) return mid;
      if (at < row) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

/**
 * Outcomes are interned: most rollouts share a handful (the file's `score` of 0 or 1, or the
 * same graded answer), and each distinct one is kept once.
 */
function outcomeKey(o: Outcome): string {
  return `${o.kind}\u0000${o.source}\u0000${typeof o.value}:${Object.is(o.value, -0) ? '-0' : String(o.value)}\u0000${o.extracted === undefined ? '\u0001' : String(o.extracted)}\u0000${o.answerFrom ?? ''}`;
}
