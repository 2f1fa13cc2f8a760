/**
 * Each detector as a rule over a run's steps: the series it reads, which way a failure moves it,
 * the smallest shift that matters (the change-point rule is onset.ts's), and a level that is a
 * finding on its own whatever the trend (one rollout shown its reward is one too many).
 */
import type { DetectorId, Sum } from './healthTypes';
import type { OnsetRule } from './onset';
import type { StepHealth } from './stepHealth';
import type { FlaggedId } from './rolloutFlags';

export interface SeriesSpec {
  label: string;
  value: (s: StepHealth) => number | null;
  rule: OnsetRule;
  /** Drawn for context only: its shift is no onset (accuracy beside the step score). */
  isContext?: boolean;
}

export interface DetectorSpec {
  id: DetectorId;
  /** The series; the earliest onset among those that are not context counts. */
  series: SeriesSpec[];
  /** Whether the run's steps carry the detector's input; the sentence says what is missing. */
  missing: (steps: readonly StepHealth[]) => string | null;
  /** A rollout share that is a finding at any step, with or without an onset (per-rollout detectors). */
  level?: { share: (s: StepHealth) => { hits: number; of: number }; floor: number; what: string };
  /** A series detector whose shift must also go without a rise in accuracy. */
  needsFlatAccuracy?: boolean;
}

const meanOf = (s: Sum): number | null => (s.count > 0 ? s.total / s.count : null);
const shareOf = (hits: number, of: number): number | null => (of > 0 ? hits / of : null);
const none = (): null => null;

function flagged(id: FlaggedId, minEffect: number, floor: number, what: string, label: string): DetectorSpec {
  return {
    id,
    series: [{ label, value: (s) => shareOf(s.flagged[id], s.rollouts), rule: { direction: 'up', minEffect } }],
    missing: none,
    level: { share: (s) => ({ hits: s.flagged[id], of: s.rollouts }), floor, what },
  };
}

/** Accuracy of a step's binary outcomes. */
export const accuracyOf = (s: StepHealth): number | null => shareOf(s.correct, s.correct + s.incorrect);

export const DETECTORS: readonly DetectorSpec[] = [
  {
    id: 'length',
    series: [
      { label: 'mean response characters', value: (s) => meanOf(s.chars), rule: { direction: 'up', minEffect: 0.25, relative: true } },
      { label: 'share cut at the length limit', value: (s) => (s.truncationKnown > 0 ? s.truncated / s.truncationKnown : null), rule: { direction: 'up', minEffect: 0.05 } },
    ],
    missing: none,
    level: { share: (s) => ({ hits: s.truncated, of: s.truncationKnown }), floor: 0.05, what: 'stopped at the length limit' },
  },
  flagged('repetition', 0.05, 0.02, 'loop or repeat themselves', 'share with a loop'),
  flagged('format-gaming', 0.1, 0.05, 'game the answer format', 'share gaming the format'),
  flagged('reward-visible', 0.05, Number.MIN_VALUE, 'see a reward or verdict in a reply before their final answer', 'share shown their reward'),
  {
    id: 'score-inflation',
    series: [
      { label: 'mean step score', value: (s) => meanOf(s.stepScore), rule: { direction: 'up', minEffect: 0.05 } },
      { label: 'accuracy', value: accuracyOf, rule: { direction: 'up', minEffect: 0.05 }, isContext: true },
    ],
    missing: (steps) => (steps.some((s) => s.stepScore.count > 0) ? null : 'no rollout has step scores'),
    needsFlatAccuracy: true,
  },
  {
    id: 'no-signal-groups',
    series: [{ label: 'share of groups all correct or all incorrect', value: (s) => shareOf(s.noSignalGroups, s.groups), rule: { direction: 'up', minEffect: 0.1 } }],
    missing: (steps) => (steps.some((s) => s.groups > 0) ? null : 'no group has two or more rollouts with a binary outcome'),
  },
  flagged('garbled', 0.02, 0.005, 'hold garbled text', 'share with garbled text'),
  {
    id: 'entropy-collapse',
    series: [
      { label: 'mean token entropy', value: (s) => meanOf(s.entropy), rule: { direction: 'down', minEffect: 0.3, relative: true } },
      { label: 'mean token −log-probability', value: (s) => { const m = meanOf(s.logprob); return m === null ? null : -m; }, rule: { direction: 'down', minEffect: 0.3, relative: true } },
    ],
    missing: (steps) => (steps.some((s) => s.entropy.count + s.logprob.count > 0) ? null : 'not in this dump: no per-token entropy or log-probabilities (NeMo-RL generation_logprobs, prime-rl entropy / logprobs, slime rollout_log_probs)'),
  },
  {
    id: 'mismatch',
    series: [{ label: 'mean train/inference log-probability gap', value: (s) => meanOf(s.mismatch), rule: { direction: 'up', minEffect: 0.05 } }],
    missing: (steps) => (steps.some((s) => s.mismatch.count > 0) ? null : 'not in this dump: no inference and trainer log-probabilities side by side (NeMo-RL generation_logprobs + prev_logprobs, prime-rl mismatch_kl or inference_logprobs + logprobs)'),
  },
];
