/**
 * How often the low-step flag is right on labelled solutions: a solution is flagged when some step
 * scores below the threshold, flawed when its label names a wrong step. Precision is the share of
 * flagged solutions that are flawed, recall the share of flawed ones that are flagged. A solution
 * the scorer gave no verdict on is flagged by nothing.
 */
import { predictFirstError, type EvaluationItem } from './firstError';

/** The flag against the labels, at one threshold. */
export interface FlagAgreement {
  threshold: number;
  solutions: number;
  flawed: number;
  flagged: number;
  /** Flagged and flawed. */
  flaggedFlawed: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

/** The flag's precision and recall at `threshold`. */
export function flagAgreement(items: readonly EvaluationItem[], threshold: number): FlagAgreement {
  let flawed = 0;
  let flagged = 0;
  let flaggedFlawed = 0;
  for (const item of items) {
    const isFlawed = item.firstErrorStep >= 0;
    const isFlagged = !item.isUnscored && predictFirstError(item.stepScores, threshold) >= 0;
    if (isFlawed) flawed++;
    if (isFlagged) flagged++;
    if (isFlawed && isFlagged) flaggedFlawed++;
  }
  const precision = flagged > 0 ? flaggedFlawed / flagged : null;
  const recall = flawed > 0 ? flaggedFlawed / flawed : null;
  const f1 = precision === null || recall === null ? null : precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { threshold, solutions: items.length, flawed, flagged, flaggedFlawed, precision, recall, f1 };
}
