/**
 * The model scorer of a long-lived process (the editor's analysis worker): opened once per model
 * configuration, behind the persistent score cache, kept across analyses and closed when the
 * configuration changes. A model that failed is remembered as failed, so analyses fall back at once
 * instead of reloading it on every edit, until a re-score asks to try again.
 */
import { modelConfigKey, type ModelConfig } from '../../protocol/modelConfig';
import type { Scorer } from './scorer';
import { createOnnxScorer } from './onnx/onnxScorer';
import { createHttpScorer } from './http/httpScorer';
import type { EndpointScorer } from './endpoints/servedScorer';
import { createCriticScorer } from './critic/criticScorer';
import { cachedScorer } from './cache/cachedScorer';
import { createScoreCache } from './cache/scoreCache';
import { modelDirIdentity } from './cache/identity';
import { errorText } from '../../core/errorText';

/** A usable model, or why there is none (a sentence a user can act on). */
export type ModelResult = { scorer: Scorer } | { error: string };

/** Opens the scorer a configuration names; replaceable in tests. */
export type ModelOpener = (config: ModelConfig) => Promise<Scorer>;

/** How to acquire a model for one analysis. */
export interface AcquireOptions {
  /** Forget an earlier failure of this configuration and try to open it again. */
  shouldRetry?: boolean;
  /** Stops waiting (the model keeps opening for the next analysis). */
  signal?: AbortSignal;
}

interface Current {
  key: string;
  opening: Promise<ModelResult>;
  /** Set once `opening` settled with an error, or after the model failed while scoring. */
  failure: string | null;
}

const EXPECTED_FOLDER = 'Expected a folder with model.onnx (+ model.onnx_data), tokenizer.json, tokenizer_config.json '
  + 'and a prof-lens.json naming the PRM profile';
const EXPECTED_SERVER = 'Expected a vLLM server running a process reward model (GET /v1/models, POST /pooling with '
  + 'task token_classify)';
const EXPECTED_CRITIC = 'Expected an OpenAI-compatible server running a chat model (GET /v1/models, POST /v1/chat/completions)';

function messageOf(error: unknown): string {
  return errorText(error).replace(/\.$/, '');
}

/** Says what went wrong with a model and what was expected of it. */
export function describeModelFailure(config: ModelConfig, error: unknown, when: 'loading' | 'scoring' = 'loading'): string {
  if (config.kind === 'onnx') {
    const verb = when === 'loading' ? 'could not be loaded' : 'failed while scoring';
    return `The ONNX model in ${config.modelDir} ${verb}: ${messageOf(error)}. ${EXPECTED_FOLDER}.`;
  }
  const verb = when === 'loading' ? 'could not be used' : 'failed while scoring';
  const where = config.urls.length === 1 ? `at ${config.urls[0]}` : `at ${config.urls.join(', ')}`;
  if (config.kind === 'critic') return `The critic ${where} ${verb}: ${messageOf(error)}. ${EXPECTED_CRITIC}.`;
  return `The scoring server ${where} ${verb}: ${messageOf(error)}. ${EXPECTED_SERVER}.`;
}

/**
 * Opens the scorer a configuration names, started (ONNX) or connected (HTTP), behind the score
 * cache when the configuration has one. The CLI and the editor's worker both open models here.
 */
export async function openModelScorer(config: ModelConfig): Promise<Scorer> {
  const { scorer, identity } = config.kind === 'onnx' ? await openOnnx(config) : await openServed(config);
  return config.cacheDir === null || identity === null ? scorer : cachedScorer(scorer, createScoreCache({ dir: config.cacheDir }), identity);
}

async function openOnnx(config: Extract<ModelConfig, { kind: 'onnx' }>): Promise<{ scorer: Scorer; identity: string | null }> {
  const scorer = await createOnnxScorer({ modelDir: config.modelDir, workerPath: config.workerPath, providers: config.providers, intraOpThreads: config.intraOpThreads });
  // Started now, so a model that cannot load fails here rather than in the middle of an analysis.
  await scorer.start().catch(async (error: unknown) => {
    await scorer.dispose();
    throw error;
  });
  // Hashing the files is only worth it when there is a cache to key.
  const identity = config.cacheDir === null ? null : await modelDirIdentity(config.modelDir, { rememberIn: config.cacheDir });
  return { scorer, identity };
}

/**
 * An `http` PRM or a critic, connected: every endpoint asked which model it serves and, when
 * scores are cached, the model fingerprinted with one fixed probe (no user data).
 */
async function openServed(config: Extract<ModelConfig, { kind: 'http' | 'critic' }>): Promise<{ scorer: Scorer; identity: string | null }> {
  const common = {
    urls: config.urls,
    ...(config.modelName ? { modelName: config.modelName } : {}),
    ...(config.concurrency ? { concurrency: config.concurrency } : {}),
    ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
  };
  const scorer: EndpointScorer = config.kind === 'critic'
    ? createCriticScorer({ ...common, ...(config.maxTokens ? { maxTokens: config.maxTokens } : {}) })
    : createHttpScorer(common);
  try {
    await scorer.ready();
    return { scorer, identity: config.cacheDir === null ? null : await scorer.identity() };
  } catch (error) {
    await scorer.dispose();
    throw error;
  }
}

function whenAborted(signal: AbortSignal | undefined): Promise<never> | null {
  if (!signal) return null;
  return new Promise((_resolve, reject) => {
    const abort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}

/** Holds at most one open model: the one the current settings name. */
export class ModelScorers {
  private current: Current | null = null;

  constructor(private readonly open: ModelOpener = openModelScorer) {}

  /** The scorer for `config`, opened once and shared by every analysis that names it. */
  async acquire(config: ModelConfig, options: AcquireOptions = {}): Promise<ModelResult> {
    const key = modelConfigKey(config);
    if (this.current && (this.current.key !== key || (options.shouldRetry && this.current.failure !== null))) {
      await this.release();
    }
    const current = this.current ?? this.start(config, key);
    if (current.failure !== null) return { error: current.failure };
    const aborted = whenAborted(options.signal);
    return aborted ? Promise.race([current.opening, aborted]) : current.opening;
  }

  /** Marks the open model as failed (it broke while scoring) and closes it until a retry. */
  async fail(config: ModelConfig, message: string): Promise<void> {
    const current = this.current;
    if (current?.key !== modelConfigKey(config)) return;
    current.failure = message;
    const result = await current.opening;
    if ('scorer' in result) await result.scorer.dispose();
    current.opening = Promise.resolve({ error: message });
  }

  /** Closes the open model unless `config` still names it. */
  async configure(config: ModelConfig | null): Promise<void> {
    if (this.current && this.current.key !== modelConfigKey(config)) await this.release();
  }

  /** Closes the open model (its worker thread, its sockets). */
  async release(): Promise<void> {
    const current = this.current;
    this.current = null;
    const result = await current?.opening;
    if (result && 'scorer' in result) await result.scorer.dispose();
  }

  private start(config: ModelConfig, key: string): Current {
    const current: Current = { key, opening: Promise.resolve({ error: '' }), failure: null };
    current.opening = this.open(config).then(
      (scorer): ModelResult => ({ scorer }),
      (error: unknown): ModelResult => {
        current.failure = describeModelFailure(config, error);
        return { error: current.failure };
      },
    );
    this.current = current;
    return current;
  }
}
