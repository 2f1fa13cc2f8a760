/**
 * The embedded `checker` scorer: no model, just the step's own arithmetic. A step with a false
 * claim scores low, a step whose claims all hold scores high, and a step with nothing to check is
 * neutral. The neutral score sits above the usual low-score threshold (0.5) so an uncheckable step
 * is never mistaken for a flagged one, and below the verified score so that, within a group,
 * rollouts whose arithmetic was verified rank above those that could not be checked.
 */
import type { ComputeEngine } from '@cortex-js/compute-engine';
import { loadCas } from '../../core/cas';
import type { StepScoring } from '../../core/model';
import type { ScoreItem, ScoreOptions, Scorer } from '../scorer';
import { judgeWithCas } from './casCheck';
import { judgeStep, stepOutcome, type JudgedClaim, type StepScores } from './stepCheck';

/** Settings of the checker scorer. */
export interface CheckerOptions {
  /** Score of a step with at least one false claim (default 0.05). */
  falseScore?: number;
  /** Score of a step whose claims all hold (default 0.95). */
  holdsScore?: number;
  /** Score of a step with nothing checkable (default 0.7); its note is `neutral`. */
  neutralScore?: number;
  /**
   * Whether to load the CAS for claims exact arithmetic cannot settle (surds, π, binomials).
   * Default true; without it those claims are left unchecked.
   */
  useCas?: boolean;
}

/** Default scores; see the module comment for why neutral is 0.7. */
export const CHECKER_DEFAULTS: Readonly<StepScores> = { falseClaim: 0.05, allHold: 0.95, neutral: 0.7 };

/** Create the checker scorer. */
export function createCheckerScorer(options: CheckerOptions = {}): Scorer {
  const scores: StepScores = {
    falseClaim: options.falseScore ?? CHECKER_DEFAULTS.falseClaim,
    allHold: options.holdsScore ?? CHECKER_DEFAULTS.allHold,
    neutral: options.neutralScore ?? CHECKER_DEFAULTS.neutral,
  };
  const useCas = options.useCas ?? true;
  return {
    info: { kind: 'checker', label: 'checker' },
    score: (items, scoreOptions) => scoreItems(items, { scores, useCas, ...scoreOptions }),
    dispose: () => Promise.resolve(),
  };
}

interface Run extends ScoreOptions {
  scores: StepScores;
  useCas: boolean;
}

async function scoreItems(items: readonly ScoreItem[], run: Run): Promise<StepScoring[]> {
  const results: StepScoring[] = [];
  let ce: ComputeEngine | null | undefined;
  for (const [done, item] of items.entries()) {
    run.signal?.throwIfAborted();
    const judged = item.steps.map(judgeStep);
    if (run.useCas && judged.some((claims) => claims.some((j) => j.verdict.status === 'needs-cas'))) {
      ce ??= await loadCas().catch(() => null);
      if (ce) resolveWithCas(ce, judged);
    }
    const outcomes = judged.map((claims) => stepOutcome(claims, run.scores));
    results.push({
      kind: 'scored',
      scores: outcomes.map((o) => o.score),
      notes: outcomes.map((o) => o.note),
      scorer: 'checker',
    });
    run.onProgress?.(done + 1, items.length);
  }
  return results;
}

function resolveWithCas(ce: ComputeEngine, judged: JudgedClaim[][]): void {
  for (const claims of judged) {
    for (const j of claims) {
      if (j.verdict.status === 'needs-cas') j.verdict = judgeWithCas(ce, j.claim);
    }
  }
}
