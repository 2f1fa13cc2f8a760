/**
 * Turning `--scorer`, `--model` and `--url` into the scorer the analysis uses, and releasing it
 * afterwards. Model scorers are loaded only when asked for.
 */
import type { ScorerChoice } from '../scoring/chain';
import type { Scorer } from '../scoring/scorer';
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
    if (model) return await work({ scorer: args.scorer === 'onnx' || args.scorer === 'http' ? 'model' : args.scorer, modelScorer: model });
    if (args.scorer === 'onnx' || args.scorer === 'http') throw new UsageError(`--scorer ${args.scorer} needs ${args.scorer === 'onnx' ? '--model <dir>' : '--url <endpoint>'}`);
    return await work({ scorer: args.scorer });
  } finally {
    await model?.dispose();
  }
}

/** A model scorer when `--model` or `--url` is given; null otherwise. */
async function createModelScorer(args: ParsedArgs, io: CliIo): Promise<Scorer | null> {
  const modelDir = args.values.get('--model');
  const url = args.values.get('--url');
  if (!modelDir && !url) return null;
  if (modelDir && url) throw new UsageError('give either --model <dir> or --url <endpoint>, not both');
  void io;
  throw new UsageError('model scorers (--model, --url) are not available in this build');
}
