/**
 * The threshold a command analyses with: `--threshold` when given, else the one `eval --calibrate`
 * stored for this scorer's identity in the cache folder, else the default (said to be uncalibrated
 * for any scorer but the checker). Commands print it with `thresholdText`.
 */
import type { FileAnalysis } from '../core/report/fileAnalysis';
import { chooseThreshold, type Calibration, type ThresholdSource } from '../core/evaluation/thresholdChoice';
import { DEFAULT_SETTINGS } from '../core/profSettings';
import { defaultCacheDir } from '../scoring/scorers/cache/identity';
import { readCalibrations } from '../scoring/calibration/calibrationStore';
import { peekFileScores, scorerIdentity } from '../scoring/calibration/scorerIdentity';
import type { PathAnalyseOptions } from '../scoring/analysis/analysePath';
import { resolve } from 'node:path';
import { analyseFile, refuseFolder } from './analyseFile';
import { jobsOption, type ParsedArgs } from './args';
import type { CliIo } from './io';
import type { ScoringChoice } from './scorerOptions';

/** The threshold in use and the identity it was looked up for. */
export interface ThresholdInUse {
  source: ThresholdSource;
  /** The scorer identity calibrations are stored for; null when unknown (a model with --no-cache). */
  identity: string | null;
  kind: 'checker' | 'file' | 'model';
}

/** The cache folder (calibrations live there), or null with `--no-cache`. */
export function cacheDirOf(args: ParsedArgs): string | null {
  return args.flags.has('--no-cache') ? null : (args.values.get('--cache-dir') ?? defaultCacheDir());
}

/** Every stored calibration; a damaged file is said on stderr and read as none. */
export async function storedCalibrations(args: ParsedArgs, io: CliIo): Promise<Map<string, Calibration>> {
  const cacheDir = cacheDirOf(args);
  if (cacheDir === null) return new Map();
  const read = await readCalibrations(cacheDir);
  for (const problem of read.problems) io.stderr(`prof-lens: warning: ${problem}\n`);
  return read.calibrations;
}

/** Decides the threshold for analysing `file` with `scoring`. */
export async function thresholdFor(args: ParsedArgs, io: CliIo, scoring: ScoringChoice, file: string | undefined): Promise<ThresholdInUse> {
  const looksAtFile = file !== undefined && (args.scorer === 'auto' || args.scorer === 'file');
  const peek = looksAtFile ? await peekFileScores(file) : null;
  const modelName = args.values.get('--model-name');
  const { identity, kind } = scorerIdentity({ scorer: scoring.scorer, ...(scoring.modelScorer ? { model: scoring.modelScorer } : {}), peek, ...(modelName ? { modelName } : {}) });
  const source = chooseThreshold({
    given: args.values.has('--threshold') ? args.settings.threshold : null,
    fallback: DEFAULT_SETTINGS.threshold,
    identity,
    isChecker: kind === 'checker',
    calibrations: await storedCalibrations(args, io),
  });
  return { source, identity, kind };
}

/** Analyses `file` at the threshold `thresholdFor` decides. */
export async function analyseAtThreshold(file: string, args: ParsedArgs, io: CliIo, scoring: ScoringChoice, options: Partial<PathAnalyseOptions> & { command?: string } = {}): Promise<{ analysis: FileAnalysis; threshold: ThresholdInUse }> {
  const { command = 'report', ...analyseOptions } = options;
  // A folder is a run, not a file: said before anything is read.
  refuseFolder(file, command, io);
  // `--jobs N`: at most N threads judge the checker's steps (1: the command's own thread only).
  const jobs = jobsOption(args);
  // The file is looked at where the command runs, as the analysis opens it.
  const threshold = await thresholdFor(args, io, scoring, resolve(io.cwd, file));
  const analysis = await analyseFile(file, { ...analyseOptions, settings: { ...args.settings, threshold: threshold.source.value }, ...scoring, ...(jobs !== undefined ? { maxCheckerThreads: jobs } : {}) }, io, command);
  return { analysis, threshold };
}
