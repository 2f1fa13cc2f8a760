/**
 * Which low-score threshold an analysis uses, and why: the one the user gave, else the one
 * calibrated for this scorer's identity, else the default. The checker's scale is its own (two
 * levels, 0.05 and 0.9), so its default needs no calibration; any other scorer's default is said to
 * be uncalibrated wherever its threshold is shown.
 */

/** A threshold calibrated for one scorer identity (stored in the cache folder by `eval --calibrate`). */
export interface Calibration {
  /** What the scorer is (`onnx:<content hash>`, a served model's identity, `checker`, `file:<model>`). */
  identity: string;
  /** The scorer in words, as `eval` named it. */
  scorer: string;
  threshold: number;
  /** Average F1 on the labelled set at that threshold (chosen on it). */
  f1: number;
  /** The held-out figure of a seeded split, when it had one. */
  heldOut: { seed: number; threshold: number; calibratedOn: number; measuredOn: number; f1: number | null } | null;
  /** The labelled set: its name (the files), size and mix. */
  set: { name: string; size: number; errorItems: number; correctItems: number };
  /** When (ISO 8601). */
  at: string;
}

/** Where the threshold in use came from. */
export type ThresholdSource =
  | { kind: 'given'; value: number }
  | { kind: 'calibrated'; value: number; calibration: Calibration }
  | { kind: 'uncalibrated'; value: number }
  | { kind: 'default'; value: number };

/** What the choice is made from. */
export interface ThresholdInput {
  /** The threshold the user set (option or setting), if any. */
  given: number | null;
  /** The default (0.5). */
  fallback: number;
  /** The scorer's identity; null when it is not known. */
  identity: string | null;
  /** The checker's default is its own scale, not an uncalibrated guess. */
  isChecker: boolean;
  /** Calibrations by identity. */
  calibrations: ReadonlyMap<string, Calibration>;
}

/** The threshold to use: given, else calibrated for this identity, else the (un)calibrated default. */
export function chooseThreshold(input: ThresholdInput): ThresholdSource {
  if (input.given !== null) return { kind: 'given', value: input.given };
  const calibration = input.identity === null ? undefined : input.calibrations.get(input.identity);
  if (calibration) return { kind: 'calibrated', value: calibration.threshold, calibration };
  return input.isChecker ? { kind: 'default', value: input.fallback } : { kind: 'uncalibrated', value: input.fallback };
}
