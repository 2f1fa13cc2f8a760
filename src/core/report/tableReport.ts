/**
 * The file report of a decided table, counted over its columns: the same figures, in the same key
 * order, as `buildReport` over the table's rollouts in file order, without an entry or a decision
 * object per rollout. It runs once per file, so it is a few plain loops (code that runs once is
 * barely optimised by the engine: the fewer calls per row, the less that costs).
 */
import type { OutcomeKind, ReasonCode } from '../model';
import type { RolloutTable } from '../table/rolloutTable';
import { IS_DECIDED, IS_KEPT, IS_PENALISED, OUTCOME_KINDS, REASONS, type ReportPage } from '../table/rolloutTable';
import { READING_BY_ROW } from '../table/rolloutReadings';
import { bump, emptyReport, finishReport, readAsWordsOf, type FileReport } from './fileReport';
import { COLUMN_PAGE } from '../table/columns';
import { RULE_BITS, SUSPECTED_BIT } from '../rules/falsePositiveMask';
import { FALSE_POSITIVE_RULES } from '../profSettings';

const KINDS = OUTCOME_KINDS;
const CORRECT = 0;
/** The reason of a row not decided yet (`RolloutTable.decision`'s placeholder). */
const PENDING_REASON: ReasonCode = 'not-ranked-no-scores';
const PENDING_CODE = REASONS.indexOf(PENDING_REASON);

/** The report of `table` (its groups decided) and the count of unreadable lines. */
export function reportOfTable(table: RolloutTable, unreadableLines: number): FileReport {
  const report = emptyReport(unreadableLines);
  const groupCount = table.groups.size;
  const correctPerGroup = new Int32Array(groupCount);
  const seen = new Uint8Array(groupCount);
  // Groups in order of first appearance, as a Map keyed by group would list them.
  const groupOrder: number[] = [];
  const scores: number[] = [];
  const labels: boolean[] = [];
  const kindById = table.outcomeKinds(KINDS);
  const t: Tally = { rankedCorrect: 0, kinds: new Int32Array(KINDS.length), reasons: new Tallies(REASONS.length), steps: new Map(), penalised: 0, kept: 0, notRanked: 0 };
  const readAs = new ReadAsByRow(table);
  // Runs of rows with one scorer, or one reading, are counted once per run: their words are the same.
  // A run is added when it ends, before anything after it, so the names keep their order of first appearance.
  const scorers = { id: -1, count: 0 };
  const readings = { id: -1, text: null as string | null, count: 0 };
  const endScorers = (): void => {
    if (scorers.count > 0) add(report.scorers, table.scorerLabel(scorers.id), scorers.count);
  };
  const endReadings = (): void => {
    if (readings.count > 0 && readings.text !== null) add(report.readAs, readings.text, readings.count);
    readings.count = 0;
  };
  // Page by page: the columns' own pages, no copy of a long column.
  for (let p = 0; p * COLUMN_PAGE < table.count; p++) {
    const c = table.reportPage(p);
    countPage(c, kindById, t, groupOrder, seen, correctPerGroup, scores, labels);
    for (let i = 0; i < c.count; i++) {
      const row = c.from + i;
      const mask = table.falsePositiveMask(row);
      if (mask !== 0) {
        if ((mask & SUSPECTED_BIT) !== 0) report.suspectedFalsePositives++;
        for (const rule of FALSE_POSITIVE_RULES) if ((mask & RULE_BITS[rule]) !== 0) bump(report.byFalsePositiveRule, rule);
      }
      const scorerId = c.scorerIds[i]!;
      if (scorerId === scorers.id && scorers.count > 0) scorers.count++;
      else {
        endScorers();
        scorers.id = scorerId;
        scorers.count = 1;
      }
      const readingId = c.readingIds[i]!;
      if (readingId === READING_BY_ROW) {
        endReadings();
        const text = readAs.of(row, readingId);
        if (text !== null) bump(report.readAs, text);
      } else if (readingId === readings.id && readings.count > 0) readings.count++;
      else {
        endReadings();
        readings.id = readingId;
        readings.text = readAs.of(row, readingId);
        readings.count = 1;
      }
    }
  }
  endScorers();
  endReadings();
  report.rollouts = table.count;
  for (let k = 0; k < KINDS.length; k++) report.outcomes[KINDS[k] as OutcomeKind] = t.kinds[k]!;
  report.kept = t.kept;
  report.dropped = table.count - t.kept;
  report.notRanked = t.notRanked;
  report.penalised = t.penalised;
  for (const code of t.reasons.order) report.byReason[REASONS[code] as ReasonCode] = t.reasons.counts[code]!;
  // Integer keys: an object lists them in increasing order, however they were added.
  for (const [steps, n] of t.steps) report.stepCounts[String(steps)] = n;
  report.groups = groupOrder.length;
  return finishReport(report, groupOrder.map((g) => correctPerGroup[g]!), scores, labels, t.rankedCorrect);
}

/** What `countPage` counts, by number rather than by name. */
interface Tally {
  rankedCorrect: number;
  kinds: Int32Array;
  /** By reason number (a row not decided yet counts as `PENDING_REASON`). */
  reasons: Tallies;
  steps: Map<number, number>;
  penalised: number;
  kept: number;
  notRanked: number;
}

/** Counts by number, with the numbers in order of first appearance (as an object's keys would be). */
class Tallies {
  readonly counts: Int32Array;
  readonly order: number[] = [];

  constructor(size: number) {
    this.counts = new Int32Array(size);
  }

  bump(code: number): void {
    if (this.counts[code]!++ === 0) this.order.push(code);
  }
}

/** The rows' numeric figures of one page: plain loops over typed arrays, no name per row. */
function countPage(c: ReportPage, kindById: Uint8Array, t: Tally, groupOrder: number[], seen: Uint8Array, correctPerGroup: Int32Array, scores: number[], labels: boolean[]): void {
  for (let i = 0; i < c.count; i++) {
    const flags = c.flags[i]!;
    const isDecided = (flags & IS_DECIDED) !== 0;
    const kind = kindById[c.outcomeIds[i]!]!;
    const isCorrect = kind === CORRECT;
    const isRanked = isDecided && c.rank[i] !== -1;
    t.kinds[kind]!++;
    if (isDecided && (flags & IS_KEPT) !== 0) t.kept++;
    if (!isRanked) t.notRanked++;
    t.reasons.bump(isDecided ? c.reason[i]! : PENDING_CODE);
    if (isDecided && (flags & IS_PENALISED) !== 0) t.penalised++;
    const group = c.groups[i]!;
    if (seen[group] === 0) {
      seen[group] = 1;
      groupOrder.push(group);
    }
    if (isCorrect && isRanked) correctPerGroup[group]!++;
    const score = c.score[i]!;
    if (isRanked && !Number.isNaN(score)) {
      scores.push(score);
      labels.push(isCorrect);
      if (isCorrect) t.rankedCorrect++;
      const steps = c.steps[i]!;
      t.steps.set(steps, (t.steps.get(steps) ?? 0) + 1);
    }
  }
}

function add(map: Record<string, number>, key: string, n: number): void {
  map[key] = (map[key] ?? 0) + n;
}

/** The words for how each row was read, made once per reading number (rows kept by row: once per reading). */
class ReadAsByRow {
  private readonly byId = new Map<number, string | null>();

  constructor(private readonly table: RolloutTable) {}

  of(row: number, id: number): string | null {
    if (id === READING_BY_ROW) return readAsWordsOf(this.table.format(row), this.table.questionReading(row));
    const known = this.byId.get(id);
    if (known !== undefined) return known;
    const text = readAsWordsOf(this.table.format(row), this.table.questionReading(row));
    this.byId.set(id, text);
    return text;
  }
}
