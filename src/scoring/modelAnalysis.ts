/**
 * One analysis with the model the user configured: acquire it (opened once, shared), analyse with
 * it, and when it cannot be loaded or breaks while scoring, analyse again without it and say why.
 * A model failure never fails the analysis: the user still sees the checker's (or the file's) scores.
 */
import { basename } from 'node:path';
import type { FileAnalysis } from '../core/analysis';
import type { ProfSettings } from '../core/settings';
import type { AnalysisSource, ModelConfig, ScorerChoice } from '../protocol/analysis';
import { analyseText } from './analyse';
import { analysePath, type LineIndex } from './analysePath';
import { chainChoiceFor } from './chain';
import { describeModelFailure, type ModelScorers } from './modelScorers';
import type { Scorer } from './scorer';

/** What the caller learns while the analysis runs; `activity` names slow phases (loading, scoring). */
export type ModelAnalysisProgress = (done: number, total: number, activity?: string) => void;

/** One analysis request. */
export interface ModelAnalysisOptions {
  fileName: string;
  settings: Partial<ProfSettings>;
  scorer: ScorerChoice;
  model: ModelConfig | null;
  models: ModelScorers;
  shouldRetryModel?: boolean;
  signal: AbortSignal;
  onProgress?: ModelAnalysisProgress;
}

/** The analysis, and why the configured model did not score it when it did not. */
export interface ModelAnalysis {
  analysis: FileAnalysis;
  modelError?: string;
  /** For a file read from disk without its texts: where each rollout's line is, to read it again. */
  lines?: LineIndex;
}

function wantsModel(choice: ScorerChoice): boolean {
  return choice === 'auto' || choice === 'onnx' || choice === 'http';
}

/** Short enough for a status bar: the folder's name, the server's host. */
function openingActivity(config: ModelConfig): string {
  if (config.kind === 'onnx') return `loading ONNX model ${basename(config.modelDir) || config.modelDir}`;
  const host = URL.canParse(config.url) ? new URL(config.url).host : config.url;
  return `connecting to ${host}`;
}

async function acquire(options: ModelAnalysisOptions): Promise<{ scorer?: Scorer; error?: string }> {
  const { model, models, signal } = options;
  if (!model || !wantsModel(options.scorer)) return {};
  options.onProgress?.(0, 0, openingActivity(model));
  const result = await models.acquire(model, { shouldRetry: options.shouldRetryModel === true, signal });
  return 'scorer' in result ? { scorer: result.scorer } : { error: result.error };
}

const MB = 1024 * 1024;
const PROGRESS_INTERVAL_MS = 250;

/** `12%`, or `12% of 600 MB` for a file large enough for the size to matter. */
function readShare(done: number, total: number): string {
  const percent = total > 0 ? Math.floor((100 * done) / total) : 100;
  return total >= 10 * MB ? `${percent}% of ${Math.round(total / MB)} MB` : `${percent}%`;
}

/**
 * One pass over the source. Text from the editor is analysed whole, keeping texts; a file on disk
 * streams, and keeps only what the marks need (the Rollout View reads texts back from disk).
 */
async function run(source: AnalysisSource, options: ModelAnalysisOptions, modelScorer: Scorer | undefined): Promise<{ analysis: FileAnalysis; lines?: LineIndex }> {
  const activity = modelScorer ? `scoring with ${modelScorer.info.label}` : undefined;
  const common = {
    settings: options.settings,
    scorer: chainChoiceFor(options.scorer, modelScorer !== undefined),
    ...(modelScorer ? { modelScorer } : {}),
    signal: options.signal,
  };
  if (source.kind === 'text') {
    const analysis = await analyseText(source.text, { ...common, fileName: options.fileName, onProgress: (done, total) => options.onProgress?.(done, total, activity) });
    return { analysis };
  }
  let reportedAt = 0;
  const read = await analysePath(source.path, {
    ...common,
    keepText: false,
    rawOffsets: true,
    extractAnswers: true,
    // The status bar shows how much of the file is read (the number of rollouts is known only at the end), a few times a second.
    onBytes: (done, total) => {
      const now = performance.now();
      if (now - reportedAt < PROGRESS_INTERVAL_MS && done < total) return;
      reportedAt = now;
      options.onProgress?.(0, 0, `${activity ?? 'reading'} ${readShare(done, total)}`);
    },
  });
  return { analysis: { ...read.analysis, fileName: options.fileName }, ...(read.lines ? { lines: read.lines } : {}) };
}

/** Analyses the source (editor text — a string — or a file on disk) with the configured model where it works, else without it. */
export async function analyseWithModel(input: string | AnalysisSource, options: ModelAnalysisOptions): Promise<ModelAnalysis> {
  const source: AnalysisSource = typeof input === 'string' ? { kind: 'text', text: input } : input;
  const { scorer, error } = await acquire(options);
  if (!scorer) {
    const result = await run(source, options, undefined);
    return error === undefined ? result : { ...result, modelError: error };
  }
  try {
    return await run(source, options, scorer);
  } catch (failure) {
    if (options.signal.aborted || !options.model) throw failure;
    const modelError = describeModelFailure(options.model, failure, 'scoring');
    await options.models.fail(options.model, modelError);
    return { ...(await run(source, options, undefined)), modelError };
  }
}
