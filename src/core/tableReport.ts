/**
 * The file report of a decided table, counted over its columns: the same figures, in the same key
 * order, as `buildReport` over the table's rollouts in file order, without an entry or a decision
 * object per rollout. It runs once per file, so it is a few plain loops (code that runs once is
 * barely optimised by the engine: the fewer calls per row, the less that costs).
 */
import type { OutcomeKind, ReasonCode } from './model';
import type { RolloutTable } from './rolloutTable';
import { IS_DECIDED, IS_KEPT, IS_PENALISED, OUTCOME_KINDS, REASONS } from './rolloutTable';
import { READING_BY_ROW } from './rolloutReadings';
import { bump, emptyReport, finishReport, readAsWordsOf, type FileReport } from './fileReport';
import { COLUMN_PAGE } from './columns';

const KINDS = OUTCOME_KINDS;
const CORRECT = 0;
/** The reason of a row not decided yet (`RolloutTable.decision`'s placeholder). */
const PENDING_REASON: ReasonCode = 'not-ranked-no-scores';

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
  let rankedCorrect = 0;
  const kindById = table.outcomeKinds(KINDS);
  const readAs = new ReadAsByRow(table);
  let lastScorer = -1;
  let scorer = '';
  // Page by page: the columns' own pages, no copy of a long column.
  for (let p = 0; p * COLUMN_PAGE < table.count; p++) {
    const c = table.reportPage(p);
    for (let i = 0; i < c.count; i++) {
      const row = c.from + i;
      const flags = c.flags[i]!;
      const isDecided = (flags & IS_DECIDED) !== 0;
      const kind = kindById[c.outcomeIds[i]!]!;
      const isCorrect = kind === CORRECT;
      const isRanked = isDecided && c.rank[i] !== -1;
      report.rollouts++;
      report.outcomes[KINDS[kind] as OutcomeKind]++;
      if (isDecided && (flags & IS_KEPT) !== 0) report.kept++;
      else report.dropped++;
      if (!isRanked) report.notRanked++;
      bump(report.byReason, isDecided ? (REASONS[c.reason[i]!] as ReasonCode) : PENDING_REASON);
      if (isDecided && (flags & IS_PENALISED) !== 0) report.penalised++;
      const fp = table.falsePositive(row);
      if (fp.suspected) report.suspectedFalsePositives++;
      for (const rule of fp.rules) bump(report.byFalsePositiveRule, rule);
      const scorerId = c.scorerIds[i]!;
      if (scorerId !== lastScorer) {
        lastScorer = scorerId;
        scorer = table.scorerLabel(scorerId);
      }
      bump(report.scorers, scorer);
      const readAsText = readAs.of(row, c.readingIds[i]!);
      if (readAsText !== null) bump(report.readAs, readAsText);
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
        if (isCorrect) rankedCorrect++;
        bump(report.stepCounts, String(c.steps[i]));
      }
    }
  }
  report.groups = groupOrder.length;
  return finishReport(report, groupOrder.map((g) => correctPerGroup[g]!), scores, labels, rankedCorrect);
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
