/**
 * The model scorer the analysis worker should open (or keep open): an ONNX model folder, a PRM
 * served by vLLM (`/pooling`) or a chat model used as a critic, each with where its scores are
 * cached. The host decides it from trusted settings only; the API key travels in memory, never in
 * a file, and never appears in the key that identifies a configuration.
 */
import { arrayOf, either, isNumber, isString, literal, nullable, optional, shape, where, type Guard } from './guards';

/** Fields shared by the served scorers (`http`, `critic`). */
interface ServedConfig {
  /** One or more base URLs serving the same model; requests are spread over them. */
  urls: string[];
  /** Score cache folder; null → no cache. */
  cacheDir: string | null;
  /** The served model name; absent → the first model `/v1/models` lists. */
  modelName?: string;
  /** Requests in flight per endpoint. */
  concurrency?: number;
  /** Per-attempt timeout of a request, in ms (default 120 000: a long rollout on a busy server is slow). */
  timeoutMs?: number;
  /** Bearer token (from the environment or the editor's secret storage). */
  apiKey?: string;
}

export type ModelConfig =
  | {
      kind: 'onnx';
      modelDir: string;
      /** The bundled worker; absent → beside the running bundle. */
      workerPath?: string;
      /** Score cache folder; null → no cache. */
      cacheDir: string | null;
      providers?: string[];
      intraOpThreads?: number;
    }
  | (ServedConfig & { kind: 'http' })
  | (ServedConfig & { kind: 'critic'; /** `max_tokens` of each answer. */ maxTokens?: number });

const urls = where(arrayOf(isString), (list) => list.length > 0);
const served = { cacheDir: nullable(isString), urls, modelName: optional(isString), concurrency: optional(isNumber), timeoutMs: optional(isNumber), apiKey: optional(isString) };

/** Checks a model configuration (null allowed: no model). */
export const isModelConfig: Guard<ModelConfig | null> = nullable(either(
  shape({ kind: literal('onnx'), modelDir: isString, cacheDir: nullable(isString), workerPath: optional(isString), intraOpThreads: optional(isNumber), providers: optional(arrayOf(isString)) }),
  either(shape({ kind: literal('http'), ...served }), shape({ kind: literal('critic'), ...served, maxTokens: optional(isNumber) })),
));

/** A short non-cryptographic digest: enough to notice that a key changed, useless for recovering it. */
function digest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16);
}

/** Identifies a model configuration: equal keys mean the same model may be kept open. */
export function modelConfigKey(config: ModelConfig | null): string {
  if (!config) return '';
  if (config.kind === 'onnx') return JSON.stringify(['onnx', config.modelDir, config.cacheDir, config.providers ?? null, config.intraOpThreads ?? null]);
  const key = config.apiKey ? digest(config.apiKey) : null;
  const common = [config.kind, config.urls, config.cacheDir, config.modelName ?? null, config.concurrency ?? null, config.timeoutMs ?? null, key];
  return JSON.stringify(config.kind === 'critic' ? [...common, config.maxTokens ?? null] : common);
}
