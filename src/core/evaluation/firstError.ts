/**
 * First-error evaluation in the manner of ProcessBench: a step scorer "finds" the first wrong step
 * of a solution when the first step scoring below a threshold is exactly the labelled one, and
 * "passes" a solution without errors when no step falls below it. Scorer-agnostic: any step scores
 * will do, from the embedded checker to an exported PRM.
 */
import { isLowScore } from '../presentation/stepFacts';

/** One labelled solution with the step scores some scorer gave it. */
export interface EvaluationItem {
  /** The subset it belongs to (ProcessBench: gsm8k, math, olympiadbench, omnimath). */
  subset: string;
  /** One score per step; `null` for a step the scorer could not score (never counted as an error). */
  stepScores: readonly (number | null)[];
  /** 0-based index of the first wrong step, −1 when the solution has no error. */
  firstErrorStep: number;
  /**
   * The scorer gave no verdict (a critic's unreadable answer, a rollout beyond a PRM's context):
   * counted as a miss, as ProcessBench counts an unparsable critique, never left out.
   */
  isUnscored?: boolean;
}

/** Figures for one subset (or for all items together). */
export interface SubsetReport {
  subset: string;
  /** Items with an error, and how many of them had exactly the right first error predicted. */
  errorItems: number;
  errorHits: number;
  /** Items with an error in which some step was flagged at all (at the right step or not). */
  errorFlagged: number;
  /** Items without an error, and how many of them had no step flagged. */
  correctItems: number;
  correctHits: number;
  /** errorHits / errorItems, or null without error items. */
  errorAccuracy: number | null;
  /** correctHits / correctItems, or null without correct items. */
  correctAccuracy: number | null;
  /** Harmonic mean of the two accuracies; null when either is undefined. */
  f1: number | null;
}

/** A whole evaluation at one threshold. */
export interface EvaluationReport {
  threshold: number;
  subsets: SubsetReport[];
  /** Mean F1 over the subsets where it is defined (ProcessBench's headline figure); null if none. */
  averageF1: number | null;
}

/** The first step scoring below the threshold, or −1 when there is none. */
export function predictFirstError(stepScores: readonly (number | null)[], threshold: number): number {
  return stepScores.findIndex((s) => isLowScore(s, threshold));
}

/** Harmonic mean of two accuracies, ProcessBench's F1; 0 when both are 0. */
export function harmonicF1(errorAccuracy: number, correctAccuracy: number): number {
  const sum = errorAccuracy + correctAccuracy;
  return sum === 0 ? 0 : (2 * errorAccuracy * correctAccuracy) / sum;
}

/** Figures for a set of items, labelled `subset`. */
export function evaluateSubset(subset: string, items: readonly EvaluationItem[], threshold: number): SubsetReport {
  let errorItems = 0;
  let errorHits = 0;
  let errorFlagged = 0;
  let correctItems = 0;
  let correctHits = 0;
  for (const item of items) {
    // null: no prediction at all, which is right for neither kind of item.
    const predicted = item.isUnscored ? null : predictFirstError(item.stepScores, threshold);
    if (item.firstErrorStep < 0) {
      correctItems++;
      if (predicted !== null && predicted < 0) correctHits++;
    } else {
      errorItems++;
      if (predicted === item.firstErrorStep) errorHits++;
      if (predicted !== null && predicted >= 0) errorFlagged++;
    }
  }
  const errorAccuracy = errorItems > 0 ? errorHits / errorItems : null;
  const correctAccuracy = correctItems > 0 ? correctHits / correctItems : null;
  const f1 = errorAccuracy !== null && correctAccuracy !== null ? harmonicF1(errorAccuracy, correctAccuracy) : null;
  return { subset, errorItems, errorHits, errorFlagged, correctItems, correctHits, errorAccuracy, correctAccuracy, f1 };
}

/** Evaluate every subset (in order of first appearance) at one threshold. */
export function evaluateFirstError(items: readonly EvaluationItem[], threshold: number): EvaluationReport {
  const bySubset = new Map<string, EvaluationItem[]>();
  for (const item of items) {
    const list = bySubset.get(item.subset);
    if (list) list.push(item);
    else bySubset.set(item.subset, [item]);
  }
  const subsets = [...bySubset].map(([name, list]) => evaluateSubset(name, list, threshold));
  const defined = subsets.flatMap((s) => (s.f1 === null ? [] : [s.f1]));
  const averageF1 = defined.length > 0 ? defined.reduce((a, b) => a + b, 0) / defined.length : null;
  return { threshold, subsets, averageF1 };
}

/** Thresholds 0.05, 0.10, …, 0.95: the grid a sweep uses unless told otherwise. */
export const DEFAULT_THRESHOLDS: readonly number[] = Array.from({ length: 19 }, (_, k) => Math.round((k + 1) * 5) / 100);

/** The result of trying several thresholds. */
export interface ThresholdSweep {
  /** One report per threshold, in the order tried. */
  reports: EvaluationReport[];
  /** The report with the highest average F1 (the lowest such threshold on a tie); null if no F1 is defined. */
  best: EvaluationReport | null;
}

/**
 * Evaluate at each threshold and pick the best by average F1. Choosing the threshold on the same
 * items it is reported on flatters the figure; ProcessBench tunes it on held-out data.
 */
export function sweepThresholds(items: readonly EvaluationItem[], thresholds: readonly number[] = DEFAULT_THRESHOLDS): ThresholdSweep {
  const reports = thresholds.map((t) => evaluateFirstError(items, t));
  let best: EvaluationReport | null = null;
  for (const report of reports) {
    if (report.averageF1 === null) continue;
    if (best === null || best.averageF1 === null || report.averageF1 > best.averageF1) best = report;
  }
  return { reports, best };
}

/** What a labelled rollout carries: its step labels (+1/0 fine, −1 wrong, null unrated) and scores. */
export interface LabelledRollout {
  stepLabels: readonly (number | null)[] | null;
  stepScores: readonly (number | null)[];
  isScored: boolean;
}

/**
 * Where a labelled solution first goes wrong: the first step labelled −1, or −1 when none is;
 * null when the rollout carries no step labels. One reading for every labelled format (the format
 * adapters put PRM800K ratings, ProcessBench's `label` and Math-Shepherd's +/- into `stepLabels`).
 */
export function firstErrorOf(stepLabels: readonly (number | null)[] | null): number | null {
  return stepLabels ? stepLabels.indexOf(-1) : null;
}

/**
 * Evaluation items from analysed rollouts: every one that carries labels. One the scorer could not
 * score stays in as a miss (as ProcessBench counts it), marked `isUnscored`; so does one whose
 * every step score is null (how `prof-lens score` writes a rollout its model gave no verdict on).
 */
export function evaluationItems(rollouts: readonly LabelledRollout[], subset: string): EvaluationItem[] {
  const items: EvaluationItem[] = [];
  for (const r of rollouts) {
    const firstErrorStep = firstErrorOf(r.stepLabels);
    if (firstErrorStep === null) continue;
    items.push({ subset, stepScores: r.stepScores, firstErrorStep, ...(hasVerdict(r) ? {} : { isUnscored: true }) });
  }
  return items;
}

/** Scored, with at least one step score (or no steps at all). */
export function hasVerdict(r: Pick<LabelledRollout, 'isScored' | 'stepScores'>): boolean {
  return r.isScored && (r.stepScores.length === 0 || r.stepScores.some((s) => s !== null));
}
