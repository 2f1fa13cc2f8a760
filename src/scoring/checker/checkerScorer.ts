/**
 * The embedded `checker` scorer: no model, just the step's own arithmetic. It has two levels and
 * says only what it found: a step with a false claim scores low; every other step gets one and the
 * same score, whether it held arithmetic that was verified or nothing to check. "More arithmetic"
 * is not "more trustworthy": ranking verified steps above prose would drop correct solutions for
 * writing fewer calculations. What was verified is a note on the step (`checked: 4 × 12 = 48`).
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
  /** Score of every other step, checked or not (default 0.9). */
  passScore?: number;
  /**
   * Whether to load the CAS for claims exact arithmetic cannot settle (surds, π, binomials).
   * Default true; without it those claims are left unchecked.
   */
  useCas?: boolean;
}

/** Default scores: low for a false claim, one score above the usual threshold (0.5) for the rest. */
export const CHECKER_DEFAULTS: Readonly<StepScores> = { falseClaim: 0.05, pass: 0.9 };

/** Create the checker scorer. */
export function createCheckerScorer(options: CheckerOptions = {}): Scorer {
  const scores: StepScores = {
    falseClaim: options.falseScore ?? CHECKER_DEFAULTS.falseClaim,
    pass: options.passScore ?? CHECKER_DEFAULTS.pass,
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
