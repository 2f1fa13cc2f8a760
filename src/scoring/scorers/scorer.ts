/**
 * The one interface every step scorer implements: file scores, the embedded checker, an ONNX PRM
 * in a worker, a vLLM endpoint, a chat model used as a critic. Scorers turn (prompt, steps) into one score in [0,1] per step,
 * or say why they could not.
 */
import type { StepScoring } from '../../core/model';
import type { EndpointStatus } from '../../protocol/endpoints';

/** One rollout to score. */
export interface ScoreItem {
  /** The rollout's id (file order), echoed so callers can match results. */
  id: number;
  prompt: string;
  /** The steps' texts, in order. */
  steps: string[];
  /** The file line the rollout is on, for messages. */
  line?: number;
  /** The record's own step scores, for the `file` scorer. */
  fileStepScores?: (number | null)[] | null;
  /** Why the record's own step scores cannot be used, when they cannot. */
  fileScoresProblem?: string;
}

export interface ScoreOptions {
  signal?: AbortSignal;
  /** Called with the number of items finished so far. */
  onProgress?: (done: number, total: number) => void;
}

/** What a scorer says about itself (shown in the status bar, reports and `step_scores_meta`). */
export interface ScorerInfo {
  /** `file`, `checker`, `onnx`, `http`, `critic`. */
  kind: string;
  /** A short label, e.g. `checker`, `onnx qwen-prm (cpu)`. */
  label: string;
  model?: string;
  profile?: string;
  /** The execution provider actually in use, for model scorers. */
  provider?: string;
}

export interface Scorer {
  readonly info: ScorerInfo;
  /** Score a batch; the result has one entry per item, in the same order. */
  score(items: readonly ScoreItem[], options?: ScoreOptions): Promise<StepScoring[]>;
  /** Release workers, sessions, sockets. Safe to call twice. */
  dispose(): Promise<void>;
  /** Each endpoint's state, for a scorer that spreads requests over served endpoints. */
  endpointStatus?(): EndpointStatus[];
  /** What the model is (content hash, served identity), when known: what results derived from its scores are keyed by. */
  readonly modelIdentity?: string;
}
