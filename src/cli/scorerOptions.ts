/**
 * Turning `--scorer`, `--model` and `--url` into the scorer the analysis uses, and releasing it
 * afterwards. Model scorers are created only when asked for, behind the persistent score cache
 * unless `--no-cache` is given.
 */
import { isModelChoice, type ScorerChoice } from '../core/scorerChoice';
import type { Scorer } from '../scoring/scorer';
import { openModelScorer } from '../scoring/modelScorers';
import { defaultCacheDir } from '../scoring/cache/identity';
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
    if (model) return await work({ scorer: args.scorer, modelScorer: model.scorer });
    if (isModelChoice(args.scorer)) throw new UsageError(`--scorer ${args.scorer} needs ${args.scorer === 'onnx' ? '--model <dir>' : '--url <endpoint>'}`);
    return await work({ scorer: args.scorer });
  } finally {
    // The cached scorer writes its cache after every batch; disposing stops the model.
    await model?.scorer.dispose();
  }
}

/** A model scorer (behind the score cache unless `--no-cache`) when `--model` or `--url` is given; null otherwise. */
export async function createModelScorer(args: ParsedArgs, io: CliIo): Promise<{ scorer: Scorer } | null> {
  const modelDir = args.values.get('--model');
  const url = args.values.get('--url');
  if (!modelDir && !url) return null;
  if (modelDir && url) throw new UsageError('give either --model <dir> or --url <endpoint>, not both');
  const cacheDir = args.flags.has('--no-cache') ? null : (args.values.get('--cache-dir') ?? defaultCacheDir());
  const threads = args.values.get('--threads');
  const concurrency = args.values.get('--concurrency');
  const scorer = await openModelScorer(
    modelDir
      ? { kind: 'onnx', modelDir, cacheDir, providers: args.values.get('--providers')?.split(',').map((p) => p.trim()), intraOpThreads: threads ? positiveInt('--threads', threads) : undefined }
      : { kind: 'http', url: url!, cacheDir, modelName: args.values.get('--model-name'), concurrency: concurrency ? positiveInt('--concurrency', concurrency) : undefined },
  );
  io.stderr(`scoring with ${scorer.info.label}\n`);
  return { scorer };
}

function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} expects a whole number ≥ 1, got "${value}"`);
  return n;
}
