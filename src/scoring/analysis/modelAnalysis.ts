/**
 * One analysis with the model the user configured: acquire it (opened once, shared), analyse with
 * it, and when it cannot be loaded or breaks while scoring, analyse again without it and say why.
 * A model failure never fails the analysis: the user still sees the checker's (or the file's) scores.
 */
import type { CasService } from '../../core/cas/casService';
import { basename } from 'node:path';
import type { FileAnalysis } from '../../core/report/fileAnalysis';
import type { ThresholdSource } from '../../core/evaluation/thresholdChoice';
import type { ProfSettings } from '../../core/profSettings';
import { isModelChoice, type ScorerChoice } from '../../core/scorerChoice';
import type { AnalysisSource, SendPlan } from '../../protocol/analysis';
import type { EndpointStatus } from '../../protocol/endpoints';
import type { ModelConfig } from '../../protocol/modelConfig';
import { analyseText } from './analyse';
import { analysePath, type LineIndex } from './analysePath';
import { planCriticSend } from '../scorers/critic/sendPlan';
import { adaptContextFor, firstLineOf } from '../inputs/traceTokenizer';
import type { AdaptContext } from '../../core/formats/trainers';
import { InputFile } from '../inputs/inputFile';
import { ReadHash, type AnalysedFile } from '../inputs/analysedFile';
import { describeModelFailure, type ModelScorers } from '../scorers/modelScorers';
import type { Scorer } from '../scorers/scorer';

/**
 * What the caller learns while the analysis runs; `activity` names slow phases (loading,
 * scoring), `endpoints` the state of a served model's endpoints.
 */
export type ModelAnalysisProgress = (done: number, total: number, activity?: string, endpoints?: EndpointStatus[]) => void;

/** One analysis request. */
export interface ModelAnalysisOptions {
  fileName: string;
  settings: Partial<ProfSettings>;
  scorer: ScorerChoice;
  model: ModelConfig | null;
  models: ModelScorers;
  shouldRetryModel?: boolean;
  signal: AbortSignal;
  /** Where the algebra runs (the worker's CAS). */
  cas?: CasService;
  onProgress?: ModelAnalysisProgress;
  /** Asked before any rollout goes to a critic; without it, rollouts are sent unasked (the CLI). */
  confirmSend?: (plan: SendPlan) => Promise<boolean>;
  /** Decides the threshold for the scorer that ends up scoring (a calibration is per scorer); without it, `settings.threshold`. */
  chooseThreshold?: (model: Scorer | undefined) => Promise<ThresholdSource>;
}

/** The analysis, and why the configured model did not score it when it did not. */
export interface ModelAnalysis {
  analysis: FileAnalysis;
  modelError?: string;
  /** What the user declined to send to the critic. */
  modelDeclined?: string;
  endpoints?: EndpointStatus[];
  /** For a file read from disk without its texts: where each rollout's line is, to read it again. */
  lines?: LineIndex;
  /** Where the threshold used came from, when `chooseThreshold` decided it. */
  threshold?: ThresholdSource;
  /** For a file read from disk: which file and which bytes, so a later export can tell it is still that file. */
  file?: AnalysedFile;
  /** What the records needed beyond the file (the tokenizer of token-id traces), for reading them again. */
  context?: AdaptContext;
}

function wantsModel(choice: ScorerChoice): boolean {
  return choice === 'auto' || isModelChoice(choice);
}

/** Short enough for a status bar: the folder's name, the server's host. */
function openingActivity(config: ModelConfig): string {
  if (config.kind === 'onnx') return `loading ONNX model ${basename(config.modelDir) || config.modelDir}`;
  const hosts = config.urls.map((u) => (URL.canParse(u) ? new URL(u).host : u));
  return `connecting to ${hosts.length === 1 ? hosts[0] : `${hosts.length} endpoints`}`;
}

async function acquire(options: ModelAnalysisOptions): Promise<{ scorer?: Scorer; error?: string }> {
  const { model, models, signal } = options;
  if (!model || !wantsModel(options.scorer)) return {};
  options.onProgress?.(0, 0, openingActivity(model));
  const result = await models.acquire(model, { shouldRetry: options.shouldRetryModel === true, signal });
  return 'scorer' in result ? { scorer: result.scorer } : { error: result.error };
}

function endpointsOf(scorer: Scorer | undefined): EndpointStatus[] | undefined {
  const endpoints = scorer?.endpointStatus?.();
  return endpoints && endpoints.length > 0 ? endpoints : undefined;
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
async function run(source: AnalysisSource, options: ModelAnalysisOptions, modelScorer: Scorer | undefined): Promise<Omit<ModelAnalysis, 'modelError' | 'modelDeclined' | 'endpoints'>> {
  const threshold = await options.chooseThreshold?.(modelScorer);
  const chosen = threshold ? { threshold } : {};
  const activity = modelScorer ? `scoring with ${modelScorer.info.label}` : undefined;
  const common = {
    settings: threshold ? { ...options.settings, threshold: threshold.value } : options.settings,
    scorer: options.scorer,
    ...(modelScorer ? { modelScorer } : {}),
    signal: options.signal,
    ...(options.cas ? { cas: options.cas } : {}),
  };
  if (source.kind === 'text') {
    // Token-id traces open as text too; their tokenizer is looked for beside the file.
    const context = await adaptContextFor(options.fileName, { tokenizerDir: options.settings.tokenizerDir ?? null }, firstLineOf(source.text));
    const analysis = await analyseText(source.text, { ...common, context, fileName: options.fileName, onProgress: (done, total) => options.onProgress?.(done, total, activity, endpointsOf(modelScorer)) });
    return { analysis, context, ...chosen };
  }
  let reportedAt = 0;
  const input = InputFile.open(source.path);
  const hash = new ReadHash();
  let read: Awaited<ReturnType<typeof analysePath>>;
  let context: AdaptContext;
  try {
    context = await adaptContextFor(source.path, { tokenizerDir: options.settings.tokenizerDir ?? null });
    read = await analysePath(source.path, {
      ...common,
      input,
      context,
      onChunk: hash.onChunk,
      keepText: false,
      rawOffsets: true,
      extractAnswers: true,
      // The status bar shows how much of the file is read (the number of rollouts is known only at the end), a few times a second.
      onBytes: (done, total) => {
        const now = performance.now();
        if (now - reportedAt < PROGRESS_INTERVAL_MS && done < total) return;
        reportedAt = now;
        options.onProgress?.(0, 0, `${activity ?? 'reading'} ${readShare(done, total)}`, endpointsOf(modelScorer));
      },
    });
  } finally {
    input.close();
  }
  const file: AnalysedFile = { path: source.path, identity: input.identity, sha256: hash.digest() };
  // Named in place: a copy (a spread) would read the lazy \`rollouts\` and make every rollout an object.
  const analysis = read.analysis;
  analysis.fileName = options.fileName;
  return { analysis, ...(read.lines ? { lines: read.lines } : {}), file, context, ...chosen };
}

/** Null when sending may go ahead; otherwise what the user declined to send. */
async function declined(source: AnalysisSource, options: ModelAnalysisOptions, scorer: Scorer): Promise<string | null> {
  const config = options.model;
  if (config?.kind !== 'critic' || !options.confirmSend) return null;
  options.onProgress?.(0, 0, 'counting what the critic would receive');
  const plan = await planCriticSend({ source, fileName: options.fileName, settings: options.settings, config, scorer });
  if (plan.rollouts === 0) return null;
  options.onProgress?.(0, 0, `waiting for your OK to send ${plan.rollouts} rollouts`);
  if (await options.confirmSend(plan)) return null;
  options.signal.throwIfAborted();
  const hosts = plan.urls.map((u) => (URL.canParse(u) ? new URL(u).host : u)).join(', ');
  const rollouts = `${plan.rollouts} rollout${plan.rollouts === 1 ? '' : 's'}`;
  return `You did not agree to send ${rollouts} to the critic at ${hosts}, so the checker scored this file. `
    + 'Re-score File asks again.';
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
    const notSent = await declined(source, options, scorer);
    if (notSent !== null) return { ...(await run(source, options, undefined)), modelDeclined: notSent };
    const result = await run(source, options, scorer);
    const endpoints = endpointsOf(scorer);
    return endpoints ? { ...result, endpoints } : result;
  } catch (failure) {
    if (options.signal.aborted || !options.model) throw failure;
    const modelError = describeModelFailure(options.model, failure, 'scoring');
    const endpoints = endpointsOf(scorer);
    await options.models.fail(options.model, modelError);
    const result = { ...(await run(source, options, undefined)), modelError };
    return endpoints ? { ...result, endpoints } : result;
  }
}
