/**
 * The threshold in words, wherever it is shown: `threshold 0.31, calibrated on 159 labelled
 * solutions (pb.json): F1 0.41, held-out 0.38`, `threshold 0.5 (uncalibrated)`, `threshold 0.4
 * (as given)`, or `threshold 0.5`.
 */
import type { ThresholdSource } from './thresholdChoice';

/** Two decimals for an F1. */
function f1Text(f1: number | null): string {
  return f1 === null ? 'n/a' : f1.toFixed(2);
}

/** The threshold and where it came from, in one phrase. */
export function thresholdText(source: ThresholdSource): string {
  switch (source.kind) {
    case 'given':
      return `threshold ${source.value} (as given)`;
    case 'uncalibrated':
      return `threshold ${source.value} (uncalibrated)`;
    case 'default':
      return `threshold ${source.value}`;
    case 'calibrated': {
      const c = source.calibration;
      const heldOut = c.heldOut ? `, held-out ${f1Text(c.heldOut.f1)}` : '';
      return `threshold ${source.value}, calibrated on ${c.set.size} labelled solution${c.set.size === 1 ? '' : 's'} (${c.set.name}): F1 ${f1Text(c.f1)}${heldOut}`;
    }
  }
}
