/**
 * The `file` scorer: the step scores the record already carries (`step_scores`, `prm_scores`,
 * `step_rewards`, `values`). It never guesses: a record without them is unscored, with a reason.
 */
import type { StepScoring } from '../../core/model';
import type { ScoreItem, Scorer } from './scorer';

/** Create the `file` scorer. */
export function createFileScorer(): Scorer {
  return {
    info: { kind: 'file', label: 'file' },
    score: (items) => Promise.resolve(items.map(scoreFromFile)),
    dispose: () => Promise.resolve(),
  };
}

/** The record's own scores as a scoring, or unscored when it has none. */
export function scoreFromFile(item: Pick<ScoreItem, 'fileStepScores' | 'fileScoresProblem'>): StepScoring {
  if (item.fileScoresProblem !== undefined) return { kind: 'unscored', reason: item.fileScoresProblem, scorer: 'file' };
  const scores = item.fileStepScores;
  if (!scores) return { kind: 'unscored', reason: 'the record has no step scores (step_scores, prm_scores, step_rewards or values)', scorer: 'file' };
  // Kept exactly as written: a PRM's values are the user's data, not ours to rescale.
  return { kind: 'scored', scores, scorer: 'file' };
}
