/**
 * Turning `--scorer`, `--model` and `--url` into the scorer the analysis uses, and releasing it
 * afterwards. Model scorers are created only when asked for, behind the persistent score cache
 * unless `--no-cache` is given.
 */
import type { ScorerChoice } from '../scoring/chain';
import type { Scorer } from '../scoring/scorer';
import { createOnnxScorer } from '../scoring/onnx/onnxScorer';
import { createHttpScorer } from '../scoring/http/httpScorer';
import { cachedScorer } from '../scoring/cache/cachedScorer';
import { createScoreCache, type ScoreCache } from '../scoring/cache/scoreCache';
import { defaultCacheDir, endpointIdentity, modelDirIdentity } from '../scoring/cache/identity';
import type { ParsedArgs } from './args';
import { UsageError } from './args';
import type { CliIo } from './io';

export interface ScoringChoice {
  scorer: ScorerChoice;
  modelScorer?: Scorer;
}

/** Run `work` with the scorer the arguments ask for, and dispose of it afterwards. */
export async function withScorer<T>(args: ParsedArgs, io: CliIo, work: (s: ScoringChoice) => Promise<T>): Promise<T> {
  const model = await createModelScorer(args, io);
  try {
    // `auto` keeps the chain (file scores, else the model); naming the model's kind forces it.
    if (model) return await work({ scorer: args.scorer === 'onnx' || args.scorer === 'http' ? 'model' : args.scorer, modelScorer: model.scorer });
    if (args.scorer === 'onnx' || args.scorer === 'http') throw new UsageError(`--scorer ${args.scorer} needs ${args.scorer === 'onnx' ? '--model <dir>' : '--url <endpoint>'}`);
    return await work({ scorer: args.scorer });
  } finally {
    await model?.scorer.dispose();
    await model?.cache?.flush();
  }
}

/** A model scorer (cached) when `--model` or `--url` is given; null otherwise. */
export async function createModelScorer(args: ParsedArgs, io: CliIo): Promise<{ scorer: Scorer; cache: ScoreCache | null } | null> {
  const modelDir = args.values.get('--model');
  const url = args.values.get('--url');
  if (!modelDir && !url) return null;
  if (modelDir && url) throw new UsageError('give either --model <dir> or --url <endpoint>, not both');
  const { scorer, identity } = modelDir ? await onnxScorer(modelDir, args) : await httpScorer(url!, args);
  io.stderr(`scoring with ${scorer.info.label}\n`);
  if (args.flags.has('--no-cache')) return { scorer, cache: null };
  const cache = createScoreCache({ dir: args.values.get('--cache-dir') ?? defaultCacheDir() });
  return { scorer: cachedScorer(scorer, cache, identity), cache };
}

async function onnxScorer(modelDir: string, args: ParsedArgs): Promise<{ scorer: Scorer; identity: string }> {
  const threads = args.values.get('--threads');
  const providers = args.values.get('--providers')?.split(',').map((p) => p.trim());
  const scorer = await createOnnxScorer({ modelDir, providers, intraOpThreads: threads ? positiveInt('--threads', threads) : undefined });
  await scorer.start();
  return { scorer, identity: await modelDirIdentity(modelDir) };
}

async function httpScorer(url: string, args: ParsedArgs): Promise<{ scorer: Scorer; identity: string }> {
  const concurrency = args.values.get('--concurrency');
  const scorer = createHttpScorer({ url, modelName: args.values.get('--model-name'), concurrency: concurrency ? positiveInt('--concurrency', concurrency) : undefined });
  const info = await scorer.ready();
  return { scorer, identity: endpointIdentity(url, info.model ?? '') };
}

function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} expects a whole number ≥ 1, got "${value}"`);
  return n;
}
