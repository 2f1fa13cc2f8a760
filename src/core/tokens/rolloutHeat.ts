/**
 * A rollout's token heat as the analysis worker sends it to the editor (JSON-plain): what the
 * hovers, the tint and the list of hot steps read.
 */
import type { HeatMeasure, StepHeat } from './tokenHeat';
import type { HotStep } from './hotSteps';

/** One rollout's heat as the host receives it. */
export interface RolloutHeat {
  rolloutId: number;
  tokenCount: number;
  response: StepHeat;
  placement:
    | {
      isPlaced: true;
      measure: HeatMeasure;
      steps: StepHeat[];
      /** Tint runs as `[start, end, bucket]` triples in the response text. */
      runs: number[];
      /** The same runs in the record's raw line; null when the response is not one string of it. */
      rawRuns: number[] | null;
    }
    | { isPlaced: false; reason: string };
}

/** The answer to a heat request. */
export interface HeatAnswer {
  rollouts: RolloutHeat[];
  /** The file's hot steps; null when not asked for. */
  hot: HotStep[] | null;
  /** How many of the file's rollouts the hot list looked at (all of them, or MAX_HEAT_ROLLOUTS). */
  rankedRollouts: number;
}

