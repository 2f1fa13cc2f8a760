/**
 * `eval --calibrate`: the F1-best threshold on the labelled items, with the held-out figure of a
 * seeded split (`--seed`), stored in the cache folder for the scorer's identity.
 */
import { calibrate } from '../core/evaluation/calibration';
import type { EvaluationItem } from '../core/evaluation/firstError';
import type { Calibration } from '../core/evaluation/thresholdChoice';
import { storeCalibration } from '../scoring/calibration/calibrationStore';
import { UsageError, type ParsedArgs } from './args';
import { cacheDirOf, type ThresholdInUse } from './threshold';

/** A calibration and where it was stored. */
export interface StoredCalibration {
  calibration: Calibration;
  path: string;
}

export interface CalibrateInput {
  args: ParsedArgs;
  items: readonly EvaluationItem[];
  threshold: ThresholdInUse;
  scorerLabel: string;
  setName: string;
}

/** Calibrates and stores; a usage error when there is nowhere to store it or nothing to calibrate on. */
export async function calibrateAndStore(input: CalibrateInput): Promise<StoredCalibration> {
  const cacheDir = cacheDirOf(input.args);
  if (cacheDir === null) throw new UsageError('--calibrate stores the threshold in the cache folder: drop --no-cache (or give --cache-dir DIR)');
  const identity = input.threshold.identity;
  if (identity === null) throw new UsageError('--calibrate needs to know what the model is (its identity), and it could not be learned');
  const result = calibrate(input.items, input.args.settings.seed);
  if (!result) throw new UsageError('nothing calibrated or stored: --calibrate needs labelled solutions of both kinds (with a wrong step and without) on which some threshold finds a first error (F1 above 0)');
  const calibration: Calibration = {
    identity,
    scorer: input.scorerLabel,
    threshold: result.threshold,
    f1: result.f1,
    heldOut: result.heldOut,
    set: { name: input.setName, size: input.items.length, errorItems: result.errorItems, correctItems: result.correctItems },
    at: new Date().toISOString(),
  };
  return { calibration, path: await storeCalibration(cacheDir, calibration) };
}
