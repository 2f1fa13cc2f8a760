/**
 * Analysing a side of a comparison in a worker thread, under the shared worker policy (one
 * request, exactly one answer; a worker that dies under it is started once more).
 */
import { Worker } from 'node:worker_threads';
import { isCompareWorkerToHost, type AnalyseSideRequest, type CompareWorkerToHost } from '../../protocol/compare';
import { bundledWorkerPath } from '../cas/casClient';
import { SupervisedWorker } from '../workers/supervisedWorker';
import type { AnalysedSide, SideOptions } from './analyseSide';
import { CompareSourceError, type CompareSource } from './compareSource';

/** Analyses `source` in a worker of its own, which ends with the answer. */
export async function analyseSideInWorker(source: CompareSource, options: Pick<SideOptions, 'settings' | 'scorer' | 'signal'>): Promise<AnalysedSide> {
  const worker = new SupervisedWorker<CompareWorkerToHost>({
    name: 'compare',
    spawn: () => new Worker(bundledWorkerPath('compareWorker.js')),
    isReply: isCompareWorkerToHost,
    idOf: (reply) => reply.id,
    isFinal: () => true,
    unrefWhenIdle: true,
  });
  try {
    const reply = await worker.request((id) => ({ type: 'analyseSide', id, source, settings: options.settings, scorer: options.scorer } satisfies AnalyseSideRequest), options.signal ? { signal: options.signal } : {});
    if (reply.type === 'failed') throw reply.isSourceError ? new CompareSourceError(reply.message) : new Error(reply.message);
    return { side: reply.side, scorerLabel: reply.scorerLabel, problems: reply.problems, moreProblems: reply.moreProblems };
  } finally {
    await worker.dispose();
  }
}
