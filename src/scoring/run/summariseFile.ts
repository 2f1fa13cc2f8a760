/**
 * One file of a run summarised on the thread that calls this (a summary worker, or the command
 * line's own thread): its records streamed from disk into `summariseRecords`, with the label of the
 * scorer chain that scored them.
 */
import type { CasService } from '../../core/cas/casService';
import type { FileFigures } from '../../core/run/runSummary';
import type { ProfSettings } from '../../core/profSettings';
import type { ScorerChoice } from '../../core/scorerChoice';
import { createScorerChain } from '../scorers/chain';
import type { Scorer } from '../scorers/scorer';
import { fileBatches } from './fileBatches';
import { summariseRecords } from './summariseRecords';
import { adaptContextFor } from '../inputs/traceTokenizer';

export interface SummariseFileOptions {
  settings: Partial<ProfSettings>;
  scorer: ScorerChoice;
  modelScorer?: Scorer;
  signal?: AbortSignal;
  /** Where the algebra runs (the worker's CAS). */
  cas?: CasService;
  /** Bytes of the file read so far. */
  onBytes?: (bytes: number) => void;
}

export async function summariseFile(file: string, options: SummariseFileOptions): Promise<{ figures: FileFigures; scorerLabel: string }> {
  const { settings, scorer, modelScorer, signal } = options;
  const context = await adaptContextFor(file, { tokenizerDir: settings.tokenizerDir ?? null });
  const figures = await summariseRecords(fileBatches(file, options.onBytes), { file, settings, scorer, context, ...(modelScorer ? { modelScorer } : {}), ...(signal ? { signal } : {}), ...(options.cas ? { cas: options.cas } : {}) });
  return { figures, scorerLabel: createScorerChain(scorer, modelScorer).info.label };
}
