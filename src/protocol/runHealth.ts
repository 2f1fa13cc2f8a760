/**
 * The Run Dashboard's Health section: what the host sends (each run's detectors, their series and
 * onsets, as `prof-lens health --json` has them) and the webview's click on a detector's point,
 * which opens the Rollout Explorer over that step filtered to the rollouts that show it.
 */
import { DETECTOR_IDS, type DetectorId, type DetectorResult } from '../core/health/healthTypes';
import { isArray, isCount, isString, outline, type Guard } from './guards';
import { message } from './messages';

/** One run's health as the dashboard shows it. */
export interface RunHealthView {
  runId: string;
  /** `reading`: the audit is under way (or waits for the run's summaries); `ready`; `failed` with why. */
  state: 'reading' | 'ready' | 'failed';
  message: string | null;
  steps: number;
  rollouts: number;
  detectors: DetectorResult[];
}

const isDetectorId: Guard<DetectorId> = (value): value is DetectorId => typeof value === 'string' && (DETECTOR_IDS as readonly string[]).includes(value);

/** One run's health (sent when its audit finishes, and when it starts again). */
export const health = message('fromHost', 'health', { health: outline<RunHealthView>({ runId: isString, state: isString, detectors: isArray }) });

/** Explore the rollouts of `step` that show `detector`. */
export const exploreHealth = message('toHost', 'exploreHealth', { runId: isString, step: isCount, detector: isDetectorId });
