/**
 * The scorer chain of docs/scorers.md §The chain: scores in the file → the configured model → the embedded
 * checker. Which link scores a rollout is recorded on the rollout, so a user always knows whose
 * judgement a step score is.
 */
import type { StepScoring } from '../../core/model';
import { isModelChoice, type ScorerChoice } from '../../core/scorerChoice';
import type { PreparedRollout } from '../../core/formats/prepareRollout';
import type { ScoreItem, ScoreOptions, Scorer, ScorerInfo } from './scorer';
import { scoreFromFile } from './fileScorer';
import { createCheckerScorer } from './checker/checkerScorer';
import type { CheckerPool } from './checker/checkerPool';
import type { CasService } from '../../core/cas/casService';


export interface ScorerChain {
  readonly info: ScorerInfo;
  score(rollouts: readonly PreparedRollout[], options?: ScoreOptions): Promise<StepScoring[]>;
  /** Disposes only what the chain created itself (the checker), never the caller's model scorer. */
  dispose(): Promise<void>;
}

/**
 * Build the chain for a user's choice. `auto`: file scores where present, else `model` when given,
 * else the checker. A model kind (`onnx`, `http`) forces `model`; without one it scores with the
 * checker (the caller says why). `cas` is where the checker's algebra runs (default: the process's
 * CAS worker).
 */
export function createScorerChain(requested: ScorerChoice, model?: Scorer, cas?: CasService, checkerPool?: CheckerPool): ScorerChain {
  const choice = isModelChoice(requested) && !model ? 'checker' : requested;
  let checker: Scorer | null = null;
  const newChecker = (): Scorer => createCheckerScorer({ ...(cas ? { cas } : {}), ...(checkerPool ? { pool: checkerPool } : {}) });
  const fallback = (): Scorer => model ?? (checker ??= newChecker());
  const info: ScorerInfo =
    choice === 'file' ? { kind: 'file', label: 'file' } : choice === 'checker' ? { kind: 'checker', label: 'checker' } : { ...(model?.info ?? { kind: 'checker', label: 'checker' }) };
  if (choice === 'auto') info.label = `file, else ${info.label}`;
  return {
    info,
    async score(rollouts, options) {
      // Scores the file holds but that cannot be used are the file's answer too: unscored, not the model's or the checker's.
      const useFile = (p: PreparedRollout): boolean => choice === 'file' || (choice === 'auto' && hasFileScores(p.rollout));
      const results = new Array<StepScoring>(rollouts.length);
      const rest: number[] = [];
      rollouts.forEach((p, i) => {
        if (useFile(p)) results[i] = scoreFromFile(p.rollout);
        else rest.push(i);
      });
      if (rest.length) {
        const scorer = choice === 'checker' ? (checker ??= newChecker()) : fallback();
        const scored = await scorer.score(rest.map((i) => toItem(rollouts[i]!)), options);
        rest.forEach((i, k) => (results[i] = scored[k]!));
      }
      return results;
    },
    async dispose() {
      await checker?.dispose();
    },
  };
}

/** The record holds step scores (usable or not). */
export function hasFileScores(r: Pick<PreparedRollout['rollout'], 'fileStepScores' | 'fileScoresProblem'>): boolean {
  return r.fileStepScores !== null || r.fileScoresProblem !== undefined;
}

function toItem(p: PreparedRollout): ScoreItem {
  return { id: p.rollout.id, prompt: p.rollout.prompt, steps: p.steps.map((s) => s.text), line: p.rollout.line, fileStepScores: p.rollout.fileStepScores };
}
