/**
 * One training step in figures: what `prof-lens report` says about the step's rollouts (kept,
 * dropped by reason, suspected false positives, penalised, AUROC — taken from the report, not
 * recomputed), plus the trend questions a report does not answer: groups where every rollout or
 * none is correct (no GRPO signal), step-count percentiles, response length.
 *
 * A step is summarised as one *part* per file it appears in; parts are merged when a step spans
 * files. Counts, H percentiles and means merge exactly; AUROC and the response-length p90 cannot
 * be merged from summaries, so a step made of several parts gets their weighted means and says so
 * in `approximate`. PROF groups never cross parts (each part was decided on its own).
 */
import type { AnalysedRollout } from '../report/fileAnalysis';
import type { FileReport } from '../report/fileReport';

/** What a step's summary needs from each analysed rollout (texts are never needed). */
export type StepRollout = Pick<AnalysedRollout, 'group' | 'outcome' | 'decision' | 'responseChars'>;

/** The figures of one step in one file: mergeable with the same step's parts from other files. */
export interface StepPart {
  step: number;
  /** 1-based line of the step's first record in its file (where "open this step" goes). */
  firstLine: number;
  rollouts: number;
  groups: number;
  correct: number;
  incorrect: number;
  /** Outcome unknown or not binary. */
  otherOutcomes: number;
  allCorrectGroups: number;
  allIncorrectGroups: number;
  kept: number;
  dropped: number;
  notRanked: number;
  /** Reason code → rollouts, any code the analysis gives (ties included). */
  byReason: Record<string, number>;
  suspectedFalsePositives: number;
  /** Ranked correct rollouts: the share of suspected false positives is taken of these. */
  rankedCorrect: number;
  penalised: number;
  /** Step count H of ranked rollouts → rollouts (the report's histogram). */
  stepCounts: Record<string, number>;
  responseChars: { total: number; count: number; p90: number | null };
  auroc: number | null;
  /** Ranked rollouts with a process score: the weight of this part's AUROC. */
  scoredRollouts: number;
  /** Scorer label → rollouts it scored. */
  scorers: Record<string, number>;
}

/** Where a step's rollouts are: each file and the line its first record is on. */
export interface StepSource {
  file: string;
  line: number;
}

/** One step of a run, as `prof-lens trend --json` prints it (the contract fields of docs/cli.md §trend --json first). */
export interface StepSummary {
  step: number;
  rollouts: number;
  groups: number;
  correct: number;
  incorrect: number;
  /** correct / (correct + incorrect); null when no rollout has a binary outcome. */
  accuracy: number | null;
  allCorrectGroups: number;
  allIncorrectGroups: number;
  kept: number;
  dropped: number;
  byReason: Record<string, number>;
  suspectedFalsePositives: number;
  penalised: number;
  stepsMean: number | null;
  stepsP90: number | null;
  responseCharsMean: number | null;
  auroc: number | null;
  /** Suspected false positives / ranked correct rollouts. */
  falsePositiveShare: number | null;
  stepsMedian: number | null;
  responseCharsP90: number | null;
  notRanked: number;
  otherOutcomes: number;
  scorers: Record<string, number>;
  sources: StepSource[];
  /** Figures that are weighted means of several parts rather than exact (only when the step spans parts). */
  approximate?: ('auroc' | 'responseCharsP90')[];
}

/** Mean, median and p90 of a histogram (value → count); nulls when it is empty. */
export function histogramStats(counts: Readonly<Record<string, number>>): { mean: number | null; median: number | null; p90: number | null } {
  const { values, tallies } = ascendingHistogram(counts);
  let n = 0;
  for (const c of tallies) n += c;
  if (n === 0) return { mean: null, median: null, p90: null };
  let weighted = 0;
  for (let i = 0; i < values.length; i++) weighted += values[i]! * tallies[i]!;
  const mean = weighted / n;
  const at = (rank: number): number => {
    let seen = 0;
    for (let i = 0; i < values.length; i++) if ((seen += tallies[i]!) >= rank) return values[i]!;
    return values[values.length - 1]!;
  };
  // Median: the middle value, or the mean of the two middle values. p90: nearest rank, ⌈0.9·n⌉.
  const median = n % 2 === 1 ? at((n + 1) / 2) : (at(n / 2) + at(n / 2 + 1)) / 2;
  return { mean, median, p90: at(Math.ceil(0.9 * n)) };
}

/**
 * The values of a histogram that have a count, ascending, with their counts (a run has a histogram
 * per step, so no pair per value). An object's whole-number keys already come in ascending order;
 * others are sorted (stably, as a sort of the entries would).
 */
function ascendingHistogram(counts: Readonly<Record<string, number>>): { values: number[]; tallies: number[] } {
  const values: number[] = [];
  const tallies: number[] = [];
  let isAscending = true;
  for (const key in counts) {
    if (!Object.prototype.hasOwnProperty.call(counts, key)) continue;
    const value = Number(key);
    const count = counts[key] as number;
    if (!(Number.isFinite(value) && count > 0)) continue;
    if (values.length > 0 && !(value > values[values.length - 1]!)) isAscending = false;
    values.push(value);
    tallies.push(count);
  }
  if (isAscending) return { values, tallies };
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  return { values: order.map((i) => values[i]!), tallies: order.map((i) => tallies[i]!) };
}

/** Nearest-rank p90 of a list of numbers (sorted in place). */
function p90Of(values: Float64Array): number | null {
  if (values.length === 0) return null;
  values.sort();
  return values[Math.ceil(0.9 * values.length) - 1]!;
}

/** Group tallies: groups where every rollout with a binary outcome is correct, or none is. */
type Tally = { correct: number; incorrect: number };

function tally(byGroup: Map<string, Tally>, r: StepRollout): void {
  let g = byGroup.get(r.group);
  if (!g) byGroup.set(r.group, (g = { correct: 0, incorrect: 0 }));
  if (r.outcome.kind === 'correct') g.correct++;
  else if (r.outcome.kind === 'incorrect') g.incorrect++;
}

function groupTallies(byGroup: Map<string, Tally>): { allCorrect: number; allIncorrect: number } {
  let allCorrect = 0;
  let allIncorrect = 0;
  for (const g of byGroup.values()) {
    if (g.correct > 0 && g.incorrect === 0) allCorrect++;
    else if (g.incorrect > 0 && g.correct === 0) allIncorrect++;
  }
  return { allCorrect, allIncorrect };
}

/**
 * The part of `step` that one analysis (one step's records of one file) gives. `rollouts` are
 * walked once, and not kept (an entry object may be reused for the next rollout).
 */
export function partFromAnalysis(step: number, firstLine: number, report: FileReport, rollouts: Iterable<StepRollout>): StepPart {
  const byGroup = new Map<string, Tally>();
  const chars = new Float64Array(report.rollouts);
  let charTotal = 0;
  let rankedCorrect = 0;
  let scoredRollouts = 0;
  let i = 0;
  for (const r of rollouts) {
    tally(byGroup, r);
    chars[i++] = r.responseChars;
    charTotal += r.responseChars;
    if (r.decision.rank === null) continue;
    if (r.outcome.kind === 'correct') rankedCorrect++;
    if (r.decision.score !== null) scoredRollouts++;
  }
  const tallies = groupTallies(byGroup);
  return {
    step,
    firstLine,
    rollouts: report.rollouts,
    groups: report.groups,
    correct: report.outcomes.correct,
    incorrect: report.outcomes.incorrect,
    otherOutcomes: report.outcomes.unknown + report.outcomes['non-binary'],
    allCorrectGroups: tallies.allCorrect,
    allIncorrectGroups: tallies.allIncorrect,
    kept: report.kept,
    dropped: report.dropped,
    notRanked: report.notRanked,
    byReason: { ...(report.byReason as Record<string, number>) },
    suspectedFalsePositives: report.suspectedFalsePositives,
    rankedCorrect,
    penalised: report.penalised,
    stepCounts: { ...report.stepCounts },
    responseChars: { total: charTotal, count: chars.length, p90: p90Of(chars) },
    auroc: report.auroc,
    scoredRollouts,
    scorers: { ...report.scorers },
  };
}

function addCounts(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const k in from) if (Object.prototype.hasOwnProperty.call(from, k)) into[k] = (into[k] ?? 0) + (from[k] as number);
}

/** Weighted mean of the non-null values; null when none has weight. */
function weightedMean(items: readonly { value: number | null; weight: number }[]): number | null {
  let sum = 0;
  let weight = 0;
  for (const { value, weight: w } of items) {
    if (value === null || w <= 0) continue;
    sum += value * w;
    weight += w;
  }
  return weight > 0 ? sum / weight : null;
}

/** Each file once, at the first line the step has there. */
function sourcesOf(parts: readonly { file: string; part: StepPart }[]): StepSource[] {
  const lines = new Map<string, number>();
  for (const { file, part } of parts) lines.set(file, Math.min(lines.get(file) ?? Infinity, part.firstLine));
  return [...lines].map(([file, line]) => ({ file, line }));
}

/** A step's summary from its parts (one per file it appears in, in file order), with their files. */
export function mergeParts(parts: readonly { file: string; part: StepPart }[]): StepSummary {
  const first = parts[0];
  if (!first) throw new Error('a step needs at least one part');
  // One pass over the parts (a run merges a step per file, and this runs once, before the JIT has warmed).
  const t = { rollouts: 0, groups: 0, correct: 0, incorrect: 0, allCorrectGroups: 0, allIncorrectGroups: 0, kept: 0, dropped: 0 };
  const u = { suspected: 0, penalised: 0, rankedCorrect: 0, charTotal: 0, charCount: 0, notRanked: 0, otherOutcomes: 0 };
  const byReason: Record<string, number> = {};
  const stepCounts: Record<string, number> = {};
  const scorers: Record<string, number> = {};
  for (const { part: p } of parts) {
    t.rollouts += p.rollouts;
    t.groups += p.groups;
    t.correct += p.correct;
    t.incorrect += p.incorrect;
    t.allCorrectGroups += p.allCorrectGroups;
    t.allIncorrectGroups += p.allIncorrectGroups;
    t.kept += p.kept;
    t.dropped += p.dropped;
    u.suspected += p.suspectedFalsePositives;
    u.penalised += p.penalised;
    u.rankedCorrect += p.rankedCorrect;
    u.charTotal += p.responseChars.total;
    u.charCount += p.responseChars.count;
    u.notRanked += p.notRanked;
    u.otherOutcomes += p.otherOutcomes;
    addCounts(byReason, p.byReason);
    addCounts(stepCounts, p.stepCounts);
    addCounts(scorers, p.scorers);
  }
  const h = histogramStats(stepCounts);
  const isSingle = parts.length === 1;
  const summary: StepSummary = {
    step: first.part.step,
    rollouts: t.rollouts,
    groups: t.groups,
    correct: t.correct,
    incorrect: t.incorrect,
    accuracy: t.correct + t.incorrect > 0 ? t.correct / (t.correct + t.incorrect) : null,
    allCorrectGroups: t.allCorrectGroups,
    allIncorrectGroups: t.allIncorrectGroups,
    kept: t.kept,
    dropped: t.dropped,
    byReason,
    suspectedFalsePositives: u.suspected,
    penalised: u.penalised,
    stepsMean: h.mean,
    stepsP90: h.p90,
    responseCharsMean: u.charCount > 0 ? u.charTotal / u.charCount : null,
    auroc: isSingle ? first.part.auroc : weightedMean(parts.map(({ part }) => ({ value: part.auroc, weight: part.scoredRollouts }))),
    falsePositiveShare: u.rankedCorrect > 0 ? u.suspected / u.rankedCorrect : null,
    stepsMedian: h.median,
    responseCharsP90: isSingle ? first.part.responseChars.p90 : weightedMean(parts.map(({ part }) => ({ value: part.responseChars.p90, weight: part.responseChars.count }))),
    notRanked: u.notRanked,
    otherOutcomes: u.otherOutcomes,
    scorers,
    sources: sourcesOf(parts),
  };
  if (!isSingle) summary.approximate = ['auroc', 'responseCharsP90'];
  return summary;
}
