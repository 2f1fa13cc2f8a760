/**
 * The file-level picture: what PROF keeps and why, how often correct answers look flawed, and
 * whether the process scores separate correct from incorrect answers at all.
 */
import type { Decision, OutcomeKind, ReasonCode } from '../model';
import type { FalsePositive } from '../rules/groups';
import type { FalsePositiveRule } from '../profSettings';
import { auroc, calibration, type CalibrationBin } from './statistics';
import type { FormatId } from '../model';
import type { QuestionReading } from '../transcript/promptReading';
import { readAsText } from '../presentation/readingWords';

/** What the report needs from one analysed rollout. */
export interface ReportEntry {
  group: string;
  outcome: { kind: OutcomeKind };
  decision: Decision;
  falsePositive: FalsePositive;
  scorer: string;
  format?: FormatId;
  questionReading?: QuestionReading;
}

export interface FileReport {
  rollouts: number;
  groups: number;
  kept: number;
  /** Rollouts not kept, including those that could not be ranked. */
  dropped: number;
  notRanked: number;
  unreadableLines: number;
  outcomes: Record<OutcomeKind, number>;
  /**
   * Correct rollouts among all rollouts, as an evaluation harness prints its accuracy (an unknown
   * outcome counts as not correct); null for an empty file.
   */
  accuracy: number | null;
  byReason: Partial<Record<ReasonCode, number>>;
  suspectedFalsePositives: number;
  /** Suspected false positives among ranked correct rollouts. */
  falsePositiveRate: number | null;
  byFalsePositiveRule: Partial<Record<FalsePositiveRule, number>>;
  penalised: number;
  /** Step-count histogram of ranked rollouts: H → count. */
  stepCounts: Record<string, number>;
  /** Groups by number of correct rollouts: n+ → groups. */
  correctPerGroup: Record<string, number>;
  /** AUROC of the aggregate step score against the outcome (0.5 = no separation). */
  auroc: number | null;
  calibration: CalibrationBin[];
  /** Rollouts per scorer label. */
  scorers: Record<string, number>;
  /** Rollouts per way the file was read (`read as: TRL completions; question read from a chat transcript (…)`). */
  readAs: Record<string, number>;
  /**
   * Where records state their outcome (a trainer's reward, a harness's verdict) and carry a gold:
   * how many answers were graded against the gold (the first `graded` of `of` that could be), how many of those agree with the file, and the
   * first rollouts where they do not (line, 0-based response index). Absent when there were none.
   */
  gradingAgreement?: { graded: number; of: number; agrees: number; disagreeing: { line: number; index: number }[] };
}

/** Build the report from analysed rollouts and the count of unreadable lines. */
export function buildReport(entries: Iterable<ReportEntry>, unreadableLines: number): FileReport {
  const report = emptyReport(unreadableLines);
  const groups = new Map<string, number>();
  // The scores and outcomes of ranked rollouts, side by side: no object per rollout.
  const scores: number[] = [];
  const labels: boolean[] = [];
  let rankedCorrect = 0;
  for (const e of entries) {
    count(report, e);
    const d = e.decision;
    const isCorrect = e.outcome.kind === 'correct';
    groups.set(e.group, (groups.get(e.group) ?? 0) + (isCorrect && d.rank !== null ? 1 : 0));
    if (d.rank !== null && d.score !== null) {
      scores.push(d.score);
      labels.push(isCorrect);
      if (isCorrect) rankedCorrect++;
      bump(report.stepCounts, String(d.steps));
    }
  }
  report.groups = groups.size;
  return finishReport(report, groups.values(), scores, labels, rankedCorrect);
}

/**
 * The figures of a report counted so far that need every rollout: accuracy, groups by number of
 * correct rollouts (`correctPerGroup`: each group's count of ranked correct rollouts), the
 * false-positive rate, AUROC and calibration of the ranked rollouts' scores against their outcomes.
 */
export function finishReport(report: FileReport, correctPerGroup: Iterable<number>, scores: number[], labels: boolean[], rankedCorrect: number): FileReport {
  report.accuracy = report.rollouts ? report.outcomes.correct / report.rollouts : null;
  for (const nPlus of correctPerGroup) bump(report.correctPerGroup, String(nPlus));
  report.falsePositiveRate = rankedCorrect ? report.suspectedFalsePositives / rankedCorrect : null;
  report.auroc = auroc(scores, labels);
  report.calibration = calibration(scores, labels, 10);
  return report;
}

function count(report: FileReport, e: ReportEntry): void {
  report.rollouts++;
  report.outcomes[e.outcome.kind]++;
  const d = e.decision;
  if (d.kept) report.kept++;
  else report.dropped++;
  if (d.rank === null) report.notRanked++;
  bump(report.byReason, d.reason);
  if (d.penalised) report.penalised++;
  if (e.falsePositive.suspected) report.suspectedFalsePositives++;
  for (const rule of e.falsePositive.rules) bump(report.byFalsePositiveRule, rule);
  bump(report.scorers, e.scorer);
  const readAs = readAsOf(e);
  if (readAs !== null) bump(report.readAs, readAs);
}

/** The words for how an entry was read, once per (reading, format): rollouts of one prompt share them. */
const readAsWords = new WeakMap<object, Map<string, string | null>>();
const NO_READING = {};

let lastReadAs: { key: object; format: string; text: string | null } = { key: NO_READING, format: '', text: null };

function readAsOf(e: ReportEntry): string | null {
  return readAsWordsOf(e.format, e.questionReading);
}

/** `readAsText` of a (format, reading), made once per pair: the rollouts of a prompt share their reading object. */
export function readAsWordsOf(formatId: FormatId | undefined, reading: QuestionReading | undefined): string | null {
  const key = reading ?? NO_READING;
  const format = formatId ?? '';
  if (key === lastReadAs.key && format === lastReadAs.format) return lastReadAs.text;
  let byFormat = readAsWords.get(key);
  if (!byFormat) readAsWords.set(key, (byFormat = new Map()));
  if (!byFormat.has(format)) byFormat.set(format, readAsText(formatId, reading));
  const text = byFormat.get(format) ?? null;
  lastReadAs = { key, format, text };
  return text;
}

export function bump<K extends string>(map: Partial<Record<K, number>>, key: K): void {
  map[key] = (map[key] ?? 0) + 1;
}

export function emptyReport(unreadableLines: number): FileReport {
  return {
    rollouts: 0,
    groups: 0,
    kept: 0,
    dropped: 0,
    notRanked: 0,
    unreadableLines,
    outcomes: { correct: 0, incorrect: 0, unknown: 0, 'non-binary': 0 },
    accuracy: null,
    byReason: {},
    suspectedFalsePositives: 0,
    falsePositiveRate: null,
    byFalsePositiveRule: {},
    penalised: 0,
    stepCounts: {},
    correctPerGroup: {},
    auroc: null,
    calibration: [],
    scorers: {},
    readAs: {},
  };
}
