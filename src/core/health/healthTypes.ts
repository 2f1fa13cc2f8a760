/**
 * The words of a run's health audit, shared by every detector, the `health` command and the Run
 * Dashboard's Health section: what a rollout shows, what a step shows, what a detector says.
 * JSON-plain throughout (the dashboard receives them as they are).
 */

/** Detectors, in the order they are listed. */
export const DETECTOR_IDS = [
  'length',
  'repetition',
  'format-gaming',
  'reward-visible',
  'score-inflation',
  'no-signal-groups',
  'garbled',
  'entropy-collapse',
  'mismatch',
] as const;

export type DetectorId = (typeof DETECTOR_IDS)[number];

/** Detectors that judge each rollout on its own: they need no series, so they run on one file too. */
export const PER_ROLLOUT_DETECTORS: readonly DetectorId[] = ['length', 'repetition', 'format-gaming', 'reward-visible', 'garbled'];

/** What each detector looks for, in words (the one home of these names). */
export const DETECTOR_NAMES: Readonly<Record<DetectorId, string>> = {
  length: 'response length growth and length-limit hits',
  repetition: 'repetition and degenerate loops',
  'format-gaming': 'format gaming',
  'reward-visible': 'reward visible to the policy',
  'score-inflation': 'process-score inflation without accuracy',
  'no-signal-groups': 'groups with no GRPO signal',
  garbled: 'garbled text',
  'entropy-collapse': 'entropy / log-probability collapse',
  mismatch: 'train/inference mismatch',
};

/** A stretch of a response ([start, end) in UTF-16 units) and its text, capped for display. */
export interface HealthSpan {
  start: number;
  end: number;
  text: string;
}

/** What one rollout shows for one detector: how strongly, where, and in words. */
export interface Finding {
  strength: number;
  span: HealthSpan;
  note: string;
}

/** A rollout that shows a detector's failure: where it is, and the span that triggered it. */
export interface HealthExample extends Finding {
  file: string;
  /** 1-based line of the record. */
  line: number;
  /** 0-based response index within the record. */
  index: number;
  step: number;
}

/** A running mean: sums merge exactly across files. */
export interface Sum {
  total: number;
  count: number;
}

export type Severity = 'high' | 'medium' | 'low';

/**
 * What a detector says about a run or a file: `fired` with evidence, `quiet`, `not-available`
 * (the dump lacks its input), or `needs-run` (it needs a series of steps, and one file was given).
 */
export type DetectorStatus = 'fired' | 'quiet' | 'not-available' | 'needs-run';

/** One value of a series per training step (null: no rollout carried it at that step). */
export interface SeriesPoint {
  step: number;
  value: number | null;
}

export interface HealthSeries {
  label: string;
  points: SeriesPoint[];
}

export interface DetectorResult {
  id: DetectorId;
  name: string;
  status: DetectorStatus;
  /** One sentence: the evidence, or why the detector could not run. */
  summary: string;
  series: HealthSeries[];
  /** The step the failure began at (change-point rule, docs/health.md), or null. */
  onset: number | null;
  severity: Severity | null;
  /** For a detector that judges each rollout: the rollouts that show it, of those it could judge, over every step. */
  count?: { hits: number; of: number };
  /** The rollouts that show it best, strongest first. */
  examples: HealthExample[];
}

/** The health of one run (or one file). */
export interface HealthReport {
  path: string;
  /** Whether it is a run (a series of steps) or one file read on its own. */
  kind: 'run' | 'file';
  steps: number;
  rollouts: number;
  detectors: DetectorResult[];
  /** Problems reading its files, each naming the file. */
  problems: string[];
}

/** A span of `text`, with its text capped at `cap` characters (an ellipsis marks the cut). */
export function spanOf(text: string, start: number, end: number, cap = 160): HealthSpan {
  const s = Math.max(0, Math.min(start, text.length));
  const e = Math.max(s, Math.min(end, text.length));
  const raw = text.slice(s, Math.min(e, s + cap));
  return { start: s, end: e, text: e - s > cap ? `${raw}…` : raw };
}
