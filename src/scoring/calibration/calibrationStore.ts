/**
 * Calibrated thresholds on disk: `calibrations.v1.json` in the cache folder, one entry per scorer
 * identity (what the model is, never what it is called: see cache/identity.ts). Read by the CLI
 * (`report`, `filter`, `eval`, `audit`) and, through `readCalibrations`, by the editor. The file is
 * read as untrusted input: an entry that is not a calibration is named and ignored.
 */
import { mkdir } from 'node:fs';
import { join } from 'node:path';
import type { Calibration } from '../../core/evaluation/thresholdChoice';
import { ProblemList } from '../../core/presentation/listWords';
import { capText } from '../../core/presentation/capText';
import { writeFileAtomic } from '../output/outputFiles';
import { readSmallFile, SmallFileError } from '../inputs/smallFile';

export const CALIBRATIONS_FILE = 'calibrations.v1.json';
const FORMAT = 'prof-lens-calibrations';
/** A calibrations file holds one small entry per model: far below this. */
export const MAX_CALIBRATIONS_BYTES = 16 * 1024 * 1024;
/** Entries named one by one before the rest are only counted. */
const NAMED_PROBLEMS = 5;

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
/** A threshold or an F1: a number in [0, 1] (a step score's range). */
const isUnit = (v: unknown): v is number => isNumber(v) && v >= 0 && v <= 1;

/** A stored entry, or what is wrong with it. */
function asCalibration(v: unknown): Calibration | string {
  if (v === null || typeof v !== 'object') return 'is not an object';
  const c = v as Record<string, unknown>;
  const set = c.set as Record<string, unknown> | null | undefined;
  if (typeof c.identity !== 'string' || typeof c.scorer !== 'string') return 'has no identity or scorer';
  if (!isUnit(c.threshold)) return `has threshold ${shown(c.threshold)}, not a number in [0, 1]`;
  if (!isUnit(c.f1)) return `has F1 ${shown(c.f1)}, not a number in [0, 1]`;
  if (!set || typeof set.name !== 'string' || !isCount(set.size) || !isCount(set.errorItems) || !isCount(set.correctItems)) return 'has a labelled set whose counts are not whole numbers ≥ 0';
  if (set.errorItems + set.correctItems > set.size) return 'has a labelled set with more items than its size';
  const h = c.heldOut as Record<string, unknown> | null | undefined;
  const heldOut = h && isUnit(h.threshold) && isCount(h.calibratedOn) && isCount(h.measuredOn) && isCount(h.seed) && (h.f1 === null || isUnit(h.f1))
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

function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : capText(JSON.stringify(value) ?? String(value), 40);
}

/**
 * Every calibration stored in `cacheDir` (none when there is no file yet). The file is read only
 * when it is a regular file of at most `MAX_CALIBRATIONS_BYTES`; an entry that is not a
 * calibration, or whose threshold, F1 or counts are out of their range, is left out and named
 * (the first few; the rest counted in one line).
 */
export async function readCalibrations(cacheDir: string): Promise<CalibrationsRead> {
  const path = calibrationsPath(cacheDir);
  const calibrations = new Map<string, Calibration>();
  let text: string;
  try {
    text = await readSmallFile(path, MAX_CALIBRATIONS_BYTES, 'a calibrations file');
  } catch (error) {
    if (error instanceof SmallFileError) return { calibrations, problems: [`${error.message}; no calibration was read from it`] };
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
  const problems = new ProblemList(NAMED_PROBLEMS);
  for (const [identity, value] of Object.entries(entries as Record<string, unknown>)) {
    const calibration = asCalibration(value);
    if (typeof calibration === 'string') problems.push(`${path}: the entry for ${JSON.stringify(identity.slice(0, 80))} ${calibration}; ignored`);
    else if (calibration.identity !== identity) problems.push(`${path}: the entry for ${JSON.stringify(identity.slice(0, 80))} names another identity; ignored`);
    else calibrations.set(identity, calibration);
  }
  const more = (n: number): string => `${path}: ${n.toLocaleString('en-US')} more entries ignored (${problems.count.toLocaleString('en-US')} in all; calibrate again to rewrite the file)`;
  return { calibrations, problems: problems.lines(more) };
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
