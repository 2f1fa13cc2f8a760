/**
 * Turning `--scorer`, `--model` and `--url` into the scorer the analysis uses, and releasing it
 * afterwards. Model scorers are created only when asked for, behind the persistent score cache
 * unless `--no-cache` is given. `--url` may be repeated: the requests are spread over the servers.
 */
import { describeEndpoint } from '../protocol/endpoints';
import { buildModelConfig, type ModelConfig } from '../protocol/modelConfig';
import { isModelChoice, type ModelChoice, type ScorerChoice } from '../core/scorerChoice';
import type { Scorer } from '../scoring/scorers/scorer';
import type { CachedScorer } from '../scoring/scorers/cache/cachedScorer';
import { defaultCacheDir } from '../scoring/scorers/cache/identity';
import type { ParsedArgs } from './args';
import { UsageError } from './args';
import type { CliIo } from './io';

export interface ScoringChoice {
  scorer: ScorerChoice;
  modelScorer?: Scorer;
}

const NEEDS: Record<ModelChoice, string> = {
  onnx: '--model <dir>',
  http: '--url <endpoint> (a vLLM server running a PRM)',
  critic: '--url <base> (an OpenAI-compatible server running a chat model; repeat --url for several)',
};

/** Run `work` with the scorer the arguments ask for, and dispose of it afterwards. */
export async function withScorer<T>(args: ParsedArgs, io: CliIo, work: (s: ScoringChoice) => Promise<T>): Promise<T> {
  const model = await createModelScorer(args, io);
  try {
    // `auto` keeps the chain (file scores, else the model); naming the model's kind forces it.
    if (model) return await work({ scorer: args.scorer, modelScorer: model.scorer });
    if (isModelChoice(args.scorer)) throw new UsageError(`--scorer ${args.scorer} needs ${NEEDS[args.scorer]}`);
    return await work({ scorer: args.scorer });
  } finally {
    if (model) reportEndpoints(model.scorer, io);
    // The cached scorer writes its cache after every batch; disposing stops the model.
    await model?.scorer.dispose();
  }
}

/**
 * The model the arguments name, with the API key from the environment; null when none is named.
 * The servers' clients are loaded only when a server is named (`report` on file scores never loads them).
 */
export async function modelConfigOf(args: ParsedArgs, io: CliIo): Promise<ModelConfig | null> {
  const modelDir = args.values.get('--model');
  const urls = args.lists.get('--url') ?? [];
  if (args.scorer === 'critic' && urls.length === 0) throw new UsageError(`--scorer critic needs ${NEEDS.critic}`);
  if (!modelDir && urls.length === 0) return null;
  if (modelDir && urls.length > 0) throw new UsageError('give either --model <dir> or --url <endpoint>, not both');
  const cacheDir = args.flags.has('--no-cache') ? null : (args.values.get('--cache-dir') ?? defaultCacheDir());
  const number = (name: string): number | undefined => {
    const value = args.values.get(name);
    return value === undefined ? undefined : positiveInt(name, value);
  };
  if (modelDir) {
    const providers = args.values.get('--providers')?.split(',').map((p) => p.trim());
    return buildModelConfig({ kind: 'onnx', modelDir }, { cacheDir, providers, intraOpThreads: number('--threads') });
  }
  const [{ API_KEY_ENV }, { plainHttpKeyWarning }] = await Promise.all([import('../scoring/scorers/http/httpScorer'), import('../scoring/scorers/endpoints/endpointUrls')]);
  const apiKey = (io.env ?? process.env)[API_KEY_ENV] || undefined;
  const warning = plainHttpKeyWarning(urls, apiKey !== undefined);
  if (warning) io.stderr(`prof-lens: warning: ${warning}\n`);
  return buildModelConfig({ kind: args.scorer === 'critic' ? 'critic' : 'http', urls }, {
    cacheDir,
    apiKey,
    modelName: args.values.get('--model-name'),
    concurrency: number('--concurrency'),
    timeoutMs: args.values.has('--timeout') ? timeoutMs(args.values.get('--timeout')!) : undefined,
    maxTokens: number('--max-tokens'),
  });
}

/** A model scorer (behind the score cache unless `--no-cache`) when `--model` or `--url` is given; null otherwise. */
export async function createModelScorer(args: ParsedArgs, io: CliIo): Promise<{ scorer: Scorer } | null> {
  const config = await modelConfigOf(args, io);
  if (!config) return null;
  const { openModelScorer } = await import('../scoring/scorers/modelScorers');
  const scorer = await openModelScorer(config);
  const spread = config.kind !== 'onnx' && config.urls.length > 1 ? ` over ${config.urls.length} endpoints` : '';
  io.stderr(`scoring with ${scorer.info.label}${spread}\n`);
  return { scorer };
}

/** Each endpoint's state on stderr, when there are several or one of them failed; and what went wrong with the score cache, once. */
export function reportEndpoints(scorer: Scorer, io: CliIo): void {
  const notice = (scorer as Partial<CachedScorer>).takeCacheNotice?.();
  if (notice) io.stderr(`prof-lens: ${notice}\n`);
  const endpoints = scorer.endpointStatus?.() ?? [];
  if (endpoints.length > 1 || endpoints.some((e) => e.failures > 0 || e.state !== 'ready')) {
    for (const endpoint of endpoints) io.stderr(`  endpoint ${describeEndpoint(endpoint)}\n`);
  }
}

/** `--timeout S`: seconds a request may take in all, attempts and waits (a fraction allowed), as ms. */
function timeoutMs(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) throw new UsageError(`--timeout expects seconds, more than 0 and at most 86400, got "${value}"`);
  return Math.ceil(seconds * 1000);
}

function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} expects a whole number ≥ 1, got "${value}"`);
  return n;
}
