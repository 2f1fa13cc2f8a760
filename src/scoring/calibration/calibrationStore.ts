/**
 * Calibrated thresholds on disk: `calibrations.v1.json` in the cache folder, one entry per scorer
 * identity (what the model is, never what it is called: see cache/identity.ts). Read by the CLI
 * (`report`, `filter`, `eval`, `audit`) and, through `readCalibrations`, by the editor. The file is
 * read as untrusted input: an entry that is not a calibration is named and ignored.
 */
import { mkdir, readFile } from 'node:fs';
import { join } from 'node:path';
import type { Calibration } from '../../core/evaluation/thresholdChoice';
import { writeFileAtomic } from '../output/outputFiles';

export const CALIBRATIONS_FILE = 'calibrations.v1.json';
const FORMAT = 'prof-lens-calibrations';

/** The calibrations of a cache folder and what was wrong with any entry left out. */
export interface CalibrationsRead {
  calibrations: Map<string, Calibration>;
  problems: string[];
}

/** The calibrations file of a cache folder. */
export function calibrationsPath(cacheDir: string): string {
  return join(cacheDir, CALIBRATIONS_FILE);
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isCount = (v: unknown): v is number => isNumber(v) && Number.isInteger(v) && v >= 0;

/** A stored entry, or null when it is not a calibration. */
function asCalibration(v: unknown): Calibration | null {
  if (v === null || typeof v !== 'object') return null;
  const c = v as Record<string, unknown>;
  const set = c.set as Record<string, unknown> | null | undefined;
  if (typeof c.identity !== 'string' || typeof c.scorer !== 'string' || !isNumber(c.threshold) || !isNumber(c.f1)) return null;
  if (!set || typeof set.name !== 'string' || !isCount(set.size) || !isCount(set.errorItems) || !isCount(set.correctItems)) return null;
  const h = c.heldOut as Record<string, unknown> | null | undefined;
  const heldOut = h && isNumber(h.threshold) && isCount(h.calibratedOn) && isCount(h.measuredOn) && isCount(h.seed) && (h.f1 === null || isNumber(h.f1))
    ? { seed: h.seed, threshold: h.threshold, calibratedOn: h.calibratedOn, measuredOn: h.measuredOn, f1: h.f1 as number | null }
    : null;
  return {
    identity: c.identity,
    scorer: c.scorer.slice(0, 200),
    threshold: c.threshold,
    f1: c.f1,
    heldOut,
    set: { name: set.name.slice(0, 200), size: set.size, errorItems: set.errorItems, correctItems: set.correctItems },
    at: typeof c.at === 'string' ? c.at.slice(0, 40) : '',
  };
}

/** Every calibration stored in `cacheDir` (none when there is no file yet). */
export async function readCalibrations(cacheDir: string): Promise<CalibrationsRead> {
  const path = calibrationsPath(cacheDir);
  const calibrations = new Map<string, Calibration>();
  let text: string;
  try {
    // Through `node:fs` itself: `node:fs/promises` (and what it loads) stays out of a command's start.
    text = await new Promise<string>((resolve, reject) => readFile(path, 'utf8', (error, read) => (error ? reject(error) : resolve(read))));
  } catch {
    return { calibrations, problems: [] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { calibrations, problems: [`${path} is not JSON; no calibration was read from it`] };
  }
  const entries = (parsed as Record<string, unknown> | null)?.calibrations;
  if ((parsed as Record<string, unknown> | null)?.format !== FORMAT || entries === null || typeof entries !== 'object') {
    return { calibrations, problems: [`${path} is not a calibrations file (expected "format": "${FORMAT}"); no calibration was read from it`] };
  }
  const problems: string[] = [];
  for (const [identity, value] of Object.entries(entries as Record<string, unknown>)) {
    const calibration = asCalibration(value);
    if (calibration && calibration.identity === identity) calibrations.set(identity, calibration);
    else problems.push(`${path}: the entry for ${JSON.stringify(identity.slice(0, 80))} is not a calibration; ignored`);
  }
  return { calibrations, problems };
}

/** Stores `calibration` for its identity (replacing an earlier one), atomically. */
export async function storeCalibration(cacheDir: string, calibration: Calibration): Promise<string> {
  const { calibrations } = await readCalibrations(cacheDir);
  calibrations.set(calibration.identity, calibration);
  const path = calibrationsPath(cacheDir);
  await new Promise<void>((resolve, reject) => mkdir(cacheDir, { recursive: true }, (error) => (error ? reject(error) : resolve())));
  const body = { format: FORMAT, version: 1, calibrations: Object.fromEntries(calibrations) };
  await writeFileAtomic(path, `${JSON.stringify(body, null, 1)}\n`);
  return path;
}
