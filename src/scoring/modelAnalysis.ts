/**
 * One analysis with the model the user configured: acquire it (opened once, shared), analyse with
 * it, and when it cannot be loaded or breaks while scoring, analyse again without it and say why.
 * A model failure never fails the analysis: the user still sees the checker's (or the file's) scores.
 */
import { basename } from 'node:path';
import type { FileAnalysis } from '../core/analysis';
import type { ProfSettings } from '../core/settings';
import type { ModelConfig } from '../protocol/analysis';
import { isModelChoice, type ScorerChoice } from '../core/scorerChoice';
import { analyseText } from './analyse';
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
}

function wantsModel(choice: ScorerChoice): boolean {
  return choice === 'auto' || isModelChoice(choice);
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

function run(text: string, options: ModelAnalysisOptions, modelScorer: Scorer | undefined): Promise<FileAnalysis> {
  const activity = modelScorer ? `scoring with ${modelScorer.info.label}` : undefined;
  return analyseText(text, {
    fileName: options.fileName,
    settings: options.settings,
    scorer: options.scorer,
    ...(modelScorer ? { modelScorer } : {}),
    signal: options.signal,
    onProgress: (done, total) => options.onProgress?.(done, total, activity),
  });
}

/** Analyses `text` with the configured model where it works, else without it. */
export async function analyseWithModel(text: string, options: ModelAnalysisOptions): Promise<ModelAnalysis> {
  const { scorer, error } = await acquire(options);
  if (!scorer) {
    const analysis = await run(text, options, undefined);
    return error === undefined ? { analysis } : { analysis, modelError: error };
  }
  try {
    return { analysis: await run(text, options, scorer) };
  } catch (failure) {
    if (options.signal.aborted || !options.model) throw failure;
    const modelError = describeModelFailure(options.model, failure, 'scoring');
    await options.models.fail(options.model, modelError);
    return { analysis: await run(text, options, undefined), modelError };
  }
}
