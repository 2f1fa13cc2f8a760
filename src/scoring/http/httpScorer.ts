/**
 * The `http` scorer: a process reward model served by vLLM's `/pooling` endpoint (task
 * `token_classify`, STEP pooling on `<extra_0>`). One request per rollout, a bounded number in
 * flight; vLLM batches concurrent requests itself.
 */
import type { StepScoring } from '../../core/model';
import type { ScoreItem, ScoreOptions, Scorer, ScorerInfo } from '../scorer';
import { planTextInput, planTokenInput, PoolingShapeError, readPairs, type PoolingInput, type PoolingPlan } from './pooling';
import { QWEN_PRM_MAX_TOKENS, QWEN_PRM_SEPARATOR_ID } from './qwenPrompt';
import { runPool } from './pool';
import { HttpScorerError, requestJson, type RequestPolicy } from './request';

/** Settings of the `http` scorer. */
export interface HttpScorerOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:8000`; requests go to `<url>/pooling`. */
  url: string;
  /** The served model name; when absent it is read from `<url>/v1/models`. */
  modelName?: string;
  /** Name of the environment variable holding a bearer token. Default `PROF_LENS_API_KEY`. */
  apiKeyEnv?: string;
  /** Requests in flight at once. Default 8. */
  concurrency?: number;
  /** Per-attempt timeout. Default 120 000 ms (a long rollout on a busy server is slow). */
  timeoutMs?: number;
  /** Extra attempts after a transient failure. Default 3. */
  retries?: number;
  /** First backoff delay before a retry. Default 500 ms. */
  retryBaseMs?: number;
  profile?: 'qwen-prm';
  /**
   * Tokenizes a rollout into the PRM's ids with the separator id after each step. When given,
   * ids are sent instead of text, so the separator is exact and long rollouts are cut at a step
   * boundary to fit `maxTokens`.
   */
  encode?: (item: ScoreItem) => readonly number[] | Promise<readonly number[]>;
  /** Context length for token input. Default 4096. */
  maxTokens?: number;
  /** Separator id for token input. Default 151651 (`<extra_0>`). */
  separatorId?: number;
  /** Where the API key variable is read. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** An `http` scorer; `ready()` resolves the served model name before anything is scored. */
export interface HttpScorer extends Scorer {
  /** Resolve the model name (asking the server if needed) and return the final info. */
  ready(signal?: AbortSignal): Promise<ScorerInfo>;
}

/** Default environment variable for the bearer token. */
export const DEFAULT_API_KEY_ENV = 'PROF_LENS_API_KEY';

const DEFAULTS = { concurrency: 8, timeoutMs: 120_000, retries: 3, retryBaseMs: 500 };
const CONTEXT_MESSAGE = /context length|too long|maximum.*tokens/i;

/** Create an `http` scorer. Throws a readable error at once for a URL that is not http(s). */
export function createHttpScorer(options: HttpScorerOptions): HttpScorer {
  return new PoolingScorer(options);
}

class PoolingScorer implements HttpScorer {
  readonly info: ScorerInfo;
  private readonly base: string;
  private readonly profile: string;
  private readonly headers: Record<string, string>;
  private readonly lifetime = new AbortController();
  private model: Promise<string> | undefined;

  constructor(private readonly options: HttpScorerOptions) {
    this.base = parseBaseUrl(options.url);
    this.profile = options.profile ?? 'qwen-prm';
    const token = (options.env ?? process.env)[options.apiKeyEnv ?? DEFAULT_API_KEY_ENV];
    this.headers = token ? { authorization: `Bearer ${token}` } : {};
    this.info = { kind: 'http', label: `http ${this.profile}`, profile: this.profile, provider: this.base };
  }

  async ready(signal?: AbortSignal): Promise<ScorerInfo> {
    const { modelName } = this.options;
    this.model ??= modelName ? Promise.resolve(modelName) : discoverModel(this.base, this.policy(signal));
    // A failed discovery is not remembered, so a later call can try again.
    const name = await this.model.catch((error: unknown) => {
      this.model = undefined;
      throw error;
    });
    Object.assign(this.info, { model: name, label: `http ${this.profile} (${name})` });
    return this.info;
  }

  async score(items: readonly ScoreItem[], scoreOptions: ScoreOptions = {}): Promise<StepScoring[]> {
    this.lifetime.signal.throwIfAborted();
    const { model = '' } = await this.ready(scoreOptions.signal);
    const context: ItemContext = {
      base: this.base,
      model,
      profile: this.profile,
      options: this.options,
      policy: (signal) => this.policy(signal),
    };
    return runPool({
      items,
      limit: Math.max(1, this.options.concurrency ?? DEFAULTS.concurrency),
      worker: (item, signal) => scoreItem(item, context, signal),
      ...(scoreOptions.signal ? { signal: scoreOptions.signal } : {}),
      ...(scoreOptions.onProgress ? { onProgress: scoreOptions.onProgress } : {}),
    });
  }

  async dispose(): Promise<void> {
    this.lifetime.abort(new DOMException('the http scorer was disposed', 'AbortError'));
  }

  private policy(signal?: AbortSignal): RequestPolicy {
    return {
      timeoutMs: this.options.timeoutMs ?? DEFAULTS.timeoutMs,
      retries: this.options.retries ?? DEFAULTS.retries,
      retryBaseMs: this.options.retryBaseMs ?? DEFAULTS.retryBaseMs,
      headers: this.headers,
      signal: signal ? AbortSignal.any([signal, this.lifetime.signal]) : this.lifetime.signal,
    };
  }
}

function parseBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HttpScorerError(`"${url}" is not a URL; expected something like http://127.0.0.1:8000`, { url });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new HttpScorerError(`"${url}" is not an http or https URL; expected something like http://127.0.0.1:8000`, { url });
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

async function discoverModel(base: string, policy: RequestPolicy): Promise<string> {
  const url = `${base}/v1/models`;
  const body = await requestJson(url, undefined, policy);
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  const first: unknown = Array.isArray(data) ? data[0] : undefined;
  const id = typeof first === 'object' && first !== null ? (first as { id?: unknown }).id : undefined;
  if (typeof id !== 'string' || id === '') {
    throw new HttpScorerError(`${url} lists no served model; pass the model name explicitly`, { url });
  }
  return id;
}

interface ItemContext {
  base: string;
  model: string;
  profile: string;
  options: HttpScorerOptions;
  policy: (signal?: AbortSignal) => RequestPolicy;
}

async function planItem(item: ScoreItem, context: ItemContext): Promise<PoolingPlan> {
  const { encode, separatorId = QWEN_PRM_SEPARATOR_ID, maxTokens = QWEN_PRM_MAX_TOKENS } = context.options;
  if (!encode) return planTextInput(item.prompt, item.steps);
  const ids = await encode(item);
  return planTokenInput({ ids, steps: item.steps.length, separatorId, maxTokens });
}

async function scoreItem(item: ScoreItem, context: ItemContext, signal: AbortSignal): Promise<StepScoring> {
  const scorer = `http:${context.profile}@${context.model}`;
  if (item.steps.length === 0) return { kind: 'scored', scores: [], scorer };
  const plan = await planItem(item, context);
  if (plan.kind === 'unscored') return { kind: 'unscored', reason: plan.reason, scorer };
  const url = `${context.base}/pooling`;
  let body: unknown;
  try {
    const request = { model: context.model, input: plan.request.input, task: 'token_classify' };
    body = await requestJson(url, request, context.policy(signal));
  } catch (error) {
    // An over-long text input is this rollout's problem, not the run's.
    if (error instanceof HttpScorerError && error.status === 400 && CONTEXT_MESSAGE.test(error.serverMessage ?? '')) {
      return { kind: 'unscored', reason: `unscored (context): ${error.serverMessage ?? ''}`, scorer };
    }
    throw error;
  }
  return toScoring(body, plan.request, { url, scorer });
}

function toScoring(body: unknown, request: PoolingInput, where: { url: string; scorer: string }): StepScoring {
  let pairs: number[][];
  try {
    pairs = readPairs(body);
  } catch (error) {
    if (error instanceof PoolingShapeError) throw new HttpScorerError(`${where.url}: ${error.message}`, { url: where.url });
    throw error;
  }
  if (pairs.length !== request.expectedPairs) {
    const reason = `the server returned ${count(pairs.length, 'step score')} for ${count(request.expectedPairs, 'step')}`;
    return { kind: 'unscored', reason, scorer: where.scorer };
  }
  const scores: (number | null)[] = pairs.map((pair) => pair[1] ?? null);
  if (request.droppedSteps === 0) return { kind: 'scored', scores, scorer: where.scorer };
  const notes: (string | null)[] = scores.map(() => null);
  for (let i = 0; i < request.droppedSteps; i++) {
    scores.push(null);
    notes.push('unscored (context)');
  }
  return { kind: 'scored', scores, notes, scorer: where.scorer };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
