/**
 * A model served behind one or more OpenAI-compatible endpoints: which model it is (what
 * `/v1/models` says about it: id, root, max_model_len, parent, owner), checked on every endpoint so
 * that a replica serving something else is never mixed in, and the endpoint pool that carries the
 * requests. Shared by the `http` PRM scorer and the `critic`.
 */
import type { EndpointStatus } from '../../../protocol/endpoints';
import { servedModelIdentity } from '../cache/identity';
import type { ModelFacts } from './modelFacts';
import { EndpointPool, type PoolAnswer } from './endpointPool';
import { parseBaseUrls } from './endpointUrls';
import { EndpointError, requestJson } from './request';
import { capText } from '../../../core/presentation/capText';
import { errorText } from '../../../core/errorText';
import { isRecord } from '../../../core/isRecord';

export type { ModelFacts };

/** How to reach a served model. */
export interface ServedModelOptions {
  urls: readonly string[];
  /** The served model name; when absent, the first model `/v1/models` lists. */
  modelName?: string;
  /** Sent as a bearer token; never put in a message. */
  apiKey?: string;
  /** Requests in flight per endpoint. Default 8. */
  concurrency?: number;
  /** Per-attempt timeout. Default 120 000 ms (a long rollout on a busy server is slow). */
  timeoutMs?: number;
  /** Extra attempts after a transient failure. Default 3. */
  retries?: number;
  /** First backoff delay. Default 500 ms. */
  retryBaseMs?: number;
  /** Largest answer read. Default 16 MiB. */
  maxResponseBytes?: number;
  onEndpointChange?: () => void;
}

const DEFAULTS = { concurrency: 8, timeoutMs: 120_000, retries: 3, retryBaseMs: 500 };

/** The facts of `wanted` (or of the first model listed) in a `/v1/models` answer. */
export function readModelFacts(body: unknown, url: string, wanted?: string): ModelFacts {
  const data = isRecord(body) ? body['data'] : undefined;
  const models = Array.isArray(data) ? data.filter(isRecord).filter((m) => typeof m['id'] === 'string' && m['id'] !== '') : [];
  if (models.length === 0) {
    throw new EndpointError(`${url} lists no served model; pass the model name explicitly`, { url, isConfiguration: true });
  }
  const model = wanted === undefined ? models[0]! : models.find((m) => m['id'] === wanted);
  if (!model) {
    const served = models.slice(0, 5).map((m) => capText(String(m['id']), 100)).join(', ');
    throw new EndpointError(`${url} does not serve "${capText(wanted ?? '', 100)}" (it serves ${served})`, { url, isConfiguration: true });
  }
  const text = (key: string): string | null => (typeof model[key] === 'string' && model[key] !== '' ? (model[key] as string) : null);
  const maxModelLen = model['max_model_len'];
  return {
    id: String(model['id']),
    root: text('root'),
    maxModelLen: typeof maxModelLen === 'number' && Number.isFinite(maxModelLen) ? maxModelLen : null,
    parent: text('parent'),
    ownedBy: text('owned_by'),
  };
}

/** The facts in words: `Qwen/Qwen2.5-Math-PRM-7B (root /models/prm, max_model_len 4096)`. */
export function describeFacts(facts: ModelFacts): string {
  const extra = [facts.root && facts.root !== facts.id && `root ${facts.root}`, facts.maxModelLen !== null && `max_model_len ${facts.maxModelLen}`]
    .filter(Boolean).join(', ');
  const id = capText(facts.id, 200);
  return extra ? `${id} (${capText(extra, 300)})` : id;
}

function sameModel(a: ModelFacts, b: ModelFacts): boolean {
  return a.id === b.id && a.root === b.root && a.maxModelLen === b.maxModelLen && a.parent === b.parent;
}

/** One model behind its endpoints. */
export class ServedModel {
  readonly pool: EndpointPool;
  readonly bases: string[];
  readonly apiKey: string | undefined;
  private readonly headers: Record<string, string>;
  private facts: Promise<ModelFacts> | undefined;
  /** The endpoint whose answer set the model. */
  private referenceBase = '';
  /** The model's facts once an endpoint has told them. */
  knownFacts: ModelFacts | undefined;
  private fingerprint: Promise<string> | undefined;

  constructor(private readonly options: ServedModelOptions) {
    this.bases = parseBaseUrls(options.urls);
    this.apiKey = options.apiKey || undefined;
    this.headers = this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
    this.pool = new EndpointPool({
      bases: this.bases,
      concurrency: Math.max(1, options.concurrency ?? DEFAULTS.concurrency),
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      retries: options.retries ?? DEFAULTS.retries,
      retryBaseMs: options.retryBaseMs ?? DEFAULTS.retryBaseMs,
      headers: this.headers,
      secrets: this.apiKey ? [this.apiKey] : [],
      ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes }),
      verify: (base, signal) => this.verify(base, signal),
      ...(options.onEndpointChange ? { onChange: options.onEndpointChange } : {}),
    });
  }

  /**
   * Asks every endpoint which model it serves. The first that answers (in the order given) sets
   * the model; an endpoint serving another is retired, one that does not answer is set aside and
   * checked before its first request. Fails only when no endpoint answers.
   */
  ready(signal?: AbortSignal): Promise<ModelFacts> {
    this.facts ??= this.discover(signal);
    // A failed discovery is not remembered, so a later call can try again.
    return this.facts.catch((error: unknown) => {
      this.facts = undefined;
      throw error;
    });
  }

  /**
   * What the model is, for the score cache: what `/v1/models` says about it plus a fingerprint
   * from the scorer's fixed probe, asked once per `ServedModel` (a session).
   */
  async identity(input: { kind: string; probe: () => Promise<string>; settings?: unknown; signal?: AbortSignal }): Promise<string> {
    const facts = await this.ready(input.signal);
    this.fingerprint ??= input.probe();
    // A failed probe is not remembered, so a later call can try again.
    const fingerprint = await this.fingerprint.catch((error: unknown) => {
      this.fingerprint = undefined;
      throw error;
    });
    return servedModelIdentity({ kind: input.kind, facts, fingerprint, bases: this.bases, ...(input.settings === undefined ? {} : { settings: input.settings }) });
  }

  /** POST to `path` on the best endpoint. */
  post(path: string, body: unknown, signal?: AbortSignal): Promise<PoolAnswer> {
    return this.pool.request(path, body, signal);
  }

  status(): EndpointStatus[] {
    return this.pool.status();
  }

  dispose(): void {
    this.pool.dispose();
  }

  private async listModels(base: string, signal?: AbortSignal): Promise<ModelFacts> {
    const url = `${base}/v1/models`;
    const body = await requestJson(url, undefined, {
      timeoutMs: Math.min(this.options.timeoutMs ?? DEFAULTS.timeoutMs, 30_000),
      retries: 1,
      retryBaseMs: this.options.retryBaseMs ?? DEFAULTS.retryBaseMs,
      headers: this.headers,
      secrets: this.apiKey ? [this.apiKey] : [],
      ...(signal ? { signal } : {}),
    });
    return readModelFacts(body, url, this.options.modelName);
  }

  private async discover(signal?: AbortSignal): Promise<ModelFacts> {
    const answers = await Promise.allSettled(this.bases.map((base) => this.listModels(base, signal)));
    signal?.throwIfAborted();
    const first = answers.findIndex((a) => a.status === 'fulfilled');
    if (first < 0) throw (answers[0] as PromiseRejectedResult).reason;
    const reference = (answers[first] as PromiseFulfilledResult<ModelFacts>).value;
    this.referenceBase = this.bases[first]!;
    this.knownFacts = reference;
    answers.forEach((answer, i) => {
      const base = this.bases[i]!;
      if (answer.status === 'fulfilled') {
        if (sameModel(answer.value, reference)) this.pool.markVerified(base);
        else this.pool.retire(base, mismatch(answer.value, reference, this.referenceBase));
      } else if (answer.reason instanceof EndpointError && answer.reason.isTransient) {
        this.pool.markFailed(base, answer.reason);
      } else {
        this.pool.retire(base, errorText(answer.reason));
      }
    });
    return reference;
  }

  /** The check an endpoint that was down at first gets before its first request. */
  private async verify(base: string, signal: AbortSignal): Promise<void> {
    const reference = await this.ready(signal);
    const facts = await this.listModels(base, signal);
    if (!sameModel(facts, reference)) throw new EndpointError(mismatch(facts, reference, this.referenceBase), { url: base, isConfiguration: true });
  }
}

function mismatch(facts: ModelFacts, reference: ModelFacts, referenceBase: string): string {
  return `serves ${describeFacts(facts)}, not ${describeFacts(reference)} like ${referenceBase}`;
}
