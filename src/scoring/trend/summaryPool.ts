/**
 * The summary workers of a training run: a fixed number of worker threads, each summarising one
 * file at a time under the one worker policy every PROF Lens worker runs under (SupervisedWorker:
 * every job settles exactly once, a cancel that is not heeded in time replaces the worker, a worker
 * that dies is started again after a backoff and its job is sent once more, then failed with a
 * message naming the file). A job goes to the worker with the least work waiting.
 */
import { Worker } from 'node:worker_threads';
import type { FileFigures } from '../../core/run/runSummary';
import type { ProfSettings } from '../../core/settings';
import type { ScorerChoice } from '../../core/scorerChoice';
import type { ModelConfig } from '../../protocol/modelConfig';
import { isSummaryWorkerToHost, type HostToSummaryWorker, type SummaryWorkerToHost } from '../../protocol/trend';
import { SupervisedWorker } from '../supervisedWorker';
import { stopAfterAsking, WorkerCrashError } from '../workerPolicy';

/** One file to summarise, and how. */
export interface SummaryJob {
  file: string;
  settings: Partial<ProfSettings>;
  scorer: ScorerChoice;
  model: ModelConfig | null;
}

/** What a worker made of a file. */
export interface SummaryOutcome {
  figures: FileFigures;
  scorerLabel: string;
  modelError?: string;
}

export interface JobOptions {
  /** Bytes of the file read so far. */
  onBytes?: (bytes: number) => void;
  signal?: AbortSignal;
}

/** A worker releasing an open model gets this long before it is terminated. */
const STOP_GRACE_MS = 2_000;

/** Worker threads that summarise files, `size` at a time. */
export class SummaryPool {
  private readonly workers: SupervisedWorker<SummaryWorkerToHost>[];

  constructor(workerPath: string, size: number) {
    this.workers = Array.from({ length: Math.max(1, Math.floor(size)) }, () => new SupervisedWorker<SummaryWorkerToHost>({
      name: 'trend summary',
      spawn: () => new Worker(workerPath),
      isReply: isSummaryWorkerToHost,
      idOf: (reply) => reply.id,
      isFinal: (reply) => reply.type !== 'progress',
      cancelMessage: (id) => ({ type: 'cancel', id } satisfies HostToSummaryWorker),
      maxInFlight: 1,
      // An idle pool never holds the command line open; a busy one does.
      unrefWhenIdle: true,
      stop: stopAfterAsking({ type: 'shutdown' } satisfies HostToSummaryWorker, STOP_GRACE_MS),
    }));
  }

  /** How many files are summarised at once. */
  get size(): number {
    return this.workers.length;
  }

  /** Summarise a file; resolves with its figures or rejects with a message naming what went wrong. */
  async summarise(job: SummaryJob, options: JobOptions = {}): Promise<SummaryOutcome> {
    const worker = this.workers.reduce((best, w) => (w.pending < best.pending ? w : best));
    const request = { type: 'summarise', ...job } as const;
    try {
      const reply = await worker.request((id) => ({ ...request, id } satisfies HostToSummaryWorker), {
        ...(options.signal ? { signal: options.signal } : {}),
        onReply: (r) => r.type === 'progress' && options.onBytes?.(r.bytes),
      });
      if (reply.type === 'failed') throw new Error(reply.isCancelled ? 'cancelled' : reply.message);
      if (reply.type !== 'summarised') throw new Error(`the summary worker answered ${reply.type}`);
      return { figures: reply.figures, scorerLabel: reply.scorerLabel, ...(reply.modelError === undefined ? {} : { modelError: reply.modelError }) };
    } catch (error) {
      if (error instanceof WorkerCrashError) throw new Error(`the summary worker stopped while reading ${job.file}: ${error.message}`);
      throw error;
    }
  }

  /** Stops every worker (releasing a model first); waiting jobs fail. */
  async dispose(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.dispose()));
  }
}
