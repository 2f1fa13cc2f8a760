/**
 * The summary workers of a training run: a fixed number of worker threads, each summarising one
 * file at a time under the one worker policy every PROF Lens worker runs under (SupervisedWorker:
 * every job settles exactly once, a cancel that is not heeded in time replaces the worker, a worker
 * that dies is started again after a backoff and its job is sent once more, then failed with a
 * message naming the file). A job goes to the first worker without one.
 */
import { Worker } from 'node:worker_threads';
import type { FileFigures } from '../../core/run/runSummary';
import type { ProfSettings } from '../../core/profSettings';
import type { ScorerChoice } from '../../core/scorerChoice';
import type { ModelConfig } from '../../protocol/modelConfig';
import { isSummaryWorkerToHost, type HostToSummaryWorker, type SummaryWorkerToHost } from '../../protocol/runSummaries';
import { SupervisedWorker } from '../workers/supervisedWorker';
import { abortError, stopAfterAsking, WorkerCrashError } from '../workers/workerPolicy';

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

type SummaryWorker = SupervisedWorker<SummaryWorkerToHost>;

/** A file waiting for a worker. */
interface Waiting {
  take(worker: SummaryWorker): void;
  fail(error: Error): void;
}

/**
 * Worker threads that summarise files, `size` at a time. A file goes to the first worker that has
 * none (its next file is sent as the last one's result arrives), so no worker waits while another
 * has files queued.
 */
export class SummaryPool {
  private readonly workers: SummaryWorker[];
  private readonly free: SummaryWorker[];
  private readonly waiting: Waiting[] = [];
  /** No more files will come: each worker stops as soon as it has none. */
  private isFinishing = false;
  private readonly stopping: Promise<void>[] = [];

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
    this.free = [...this.workers];
  }

  /** How many files are summarised at once. */
  get size(): number {
    return this.workers.length;
  }

  /**
   * How many files to hand the pool at once: two per worker, so that a worker that is done has
   * its next file waiting, and does not sit idle while the host stores a summary in the cache and
   * picks the next file (a few milliseconds a file: a tenth of a run of small step files).
   */
  get lanes(): number {
    return this.workers.length * 2;
  }

  /**
   * Starts the first `count` workers now rather than on their first file: a run that finds files
   * to summarise while it is still looking up the rest in the cache has its workers ready by then.
   * A worker that fails to start says so on its first file.
   */
  warm(count: number): void {
    for (const worker of this.workers.slice(0, count)) worker.start().catch(() => undefined);
  }

  /** Summarise a file; resolves with its figures or rejects with a message naming what went wrong. */
  async summarise(job: SummaryJob, options: JobOptions = {}): Promise<SummaryOutcome> {
    const worker = await this.freeWorker(options.signal);
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
    } finally {
      this.release(worker);
    }
  }

  /**
   * Only the first `count` workers take files (the others are never started): a little work is
   * done sooner by fewer workers, as each costs a start and a JIT warm-up of its own.
   */
  limit(count: number): void {
    const allowed = new Set(this.workers.slice(0, Math.max(1, count)));
    this.free.splice(0, this.free.length, ...this.free.filter((worker) => allowed.has(worker)));
  }

  /**
   * No more files will be given: each worker stops as soon as it has none, so that stopping (a
   * thread's heap is freed, tens of milliseconds) goes on while the last files are summarised.
   */
  finishWhenIdle(): void {
    this.isFinishing = true;
    for (const worker of this.free.splice(0)) this.stopping.push(worker.dispose());
  }

  /** Stops every worker (releasing a model first); waiting jobs fail. */
  async dispose(): Promise<void> {
    const error = new Error('the trend summary workers have been disposed');
    for (const waiting of this.waiting.splice(0)) waiting.fail(error);
    await Promise.all([...this.stopping, ...this.workers.map((w) => w.dispose())]);
  }

  /** A worker with no file, as soon as there is one (files are served in the order they came). */
  private freeWorker(signal: AbortSignal | undefined): Promise<SummaryWorker> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const worker = this.free.shift();
    if (worker) return Promise.resolve(worker);
    return new Promise<SummaryWorker>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.waiting.indexOf(waiting);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(abortError(signal));
      };
      const waiting: Waiting = {
        take: (w) => (signal?.removeEventListener('abort', onAbort), resolve(w)),
        fail: (error) => (signal?.removeEventListener('abort', onAbort), reject(error)),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiting);
    });
  }

  private release(worker: SummaryWorker): void {
    const next = this.waiting.shift();
    if (next) next.take(worker);
    else if (this.isFinishing) this.stopping.push(worker.dispose());
    else this.free.push(worker);
  }
}
