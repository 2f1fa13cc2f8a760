/**
 * The host's handle on the ONNX scoring worker: starts it lazily, keeps it busy with up to two
 * batches at a time (one running, one waiting) so it never idles on a round trip, restarts it
 * with backoff after a crash, and lets each batch be cancelled.
 */
import { Worker } from 'node:worker_threads';
import {
  isWorkerToHostMessage,
  type InitRequest,
  type ReadyResponse,
  type WorkerToHostMessage,
} from '../../protocol/worker';

export interface WorkerClientOptions {
  workerPath: string;
  init: Omit<InitRequest, 'type' | 'id'>;
  /** First restart delay after a crash, doubled per consecutive crash (default 250 ms). */
  backoffInitialMs?: number;
  /** Upper bound of the restart delay (default 5 s). */
  backoffMaxMs?: number;
}

/** One batch for the worker. */
export interface WorkerBatch {
  rows: number[][];
  positions: number[][];
  padId: number;
}

interface Job {
  batch: WorkerBatch;
  signal: AbortSignal | undefined;
  resolve: (scores: number[][]) => void;
  reject: (err: Error) => void;
}

const MAX_IN_FLIGHT = 2;

/** The error a cancelled request rejects with. */
export function abortError(signal: AbortSignal | undefined): Error {
  if (signal?.reason instanceof Error) return signal.reason;
  const err = new Error('scoring cancelled');
  err.name = 'AbortError';
  return err;
}

export class OnnxWorkerClient {
  private worker: Worker | null = null;
  private starting: Promise<ReadyResponse> | null = null;
  private readyInfo: ReadyResponse | null = null;
  private pendingInit: { id: number; resolve: (r: ReadyResponse) => void; reject: (e: Error) => void } | null = null;
  private readonly queue: Job[] = [];
  private readonly inFlight = new Map<number, Job>();
  private nextId = 1;
  private crashes = 0;
  private lastWorkerError: Error | null = null;
  private isDisposed = false;

  constructor(private readonly options: WorkerClientOptions) {}

  /** What the worker reported when its session opened; null before the first start. */
  get ready(): ReadyResponse | null {
    return this.readyInfo;
  }

  /** Starts the worker and opens the session, if not already done. */
  start(): Promise<ReadyResponse> {
    if (this.isDisposed) return Promise.reject(new Error('the ONNX scorer has been disposed'));
    this.starting ??= this.launch().catch((err: unknown) => {
      this.starting = null;
      throw err;
    });
    return this.starting;
  }

  /** Queues a batch; resolves with one score array per row. */
  run(batch: WorkerBatch, signal?: AbortSignal): Promise<number[][]> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.isDisposed) return Promise.reject(new Error('the ONNX scorer has been disposed'));
    return new Promise((resolve, reject) => {
      const onAbort = (): void => this.cancel(job);
      const done = (): void => signal?.removeEventListener('abort', onAbort);
      const job: Job = {
        batch,
        signal,
        resolve: (scores) => (done(), resolve(scores)),
        reject: (err) => (done(), reject(err)),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      void this.pump();
    });
  }

  /**
   * Stops the worker; queued and running batches fail. The worker is asked to release its session
   * and end by itself; it is terminated only if it has not ended within a grace period (a batch
   * still inside native code). Safe to call twice.
   */
  async dispose(): Promise<void> {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.failAll(new Error('the ONNX scorer has been disposed'));
    const worker = this.worker;
    this.worker = null;
    this.starting = null;
    if (worker) await stopWorker(worker, this.nextId++);
  }

  private cancel(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    // A running batch cannot be interrupted in native code; its result is dropped on arrival.
    for (const [id, running] of this.inFlight) if (running === job) this.inFlight.delete(id);
    job.reject(abortError(job.signal));
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.queue.length === 0 || this.isDisposed) return;
    try {
      await this.start();
    } catch (err) {
      this.failQueued(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    while (this.worker && this.inFlight.size < MAX_IN_FLIGHT) {
      const job = this.queue.shift();
      if (!job) break;
      const id = this.nextId++;
      this.inFlight.set(id, job);
      this.worker.postMessage({ type: 'run', id, ...job.batch });
    }
  }

  private async launch(): Promise<ReadyResponse> {
    const initial = this.options.backoffInitialMs ?? 250;
    const delay = this.crashes === 0 ? 0 : Math.min(initial * 2 ** (this.crashes - 1), this.options.backoffMaxMs ?? 5000);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (this.isDisposed) throw new Error('the ONNX scorer has been disposed');
    const worker = new Worker(this.options.workerPath);
    this.worker = worker;
    this.lastWorkerError = null;
    worker.on('message', (m: unknown) => this.onMessage(m));
    worker.on('error', (err) => (this.lastWorkerError = err));
    worker.on('exit', (code) => this.onExit(worker, code));
    const id = this.nextId++;
    const ready = new Promise<ReadyResponse>((resolve, reject) => (this.pendingInit = { id, resolve, reject }));
    worker.postMessage({ type: 'init', id, ...this.options.init });
    try {
      this.readyInfo = await ready;
      return this.readyInfo;
    } catch (err) {
      // A model that cannot load will not load on retry either: stop the worker, report once.
      this.worker = null;
      await stopWorker(worker, this.nextId++);
      throw err;
    }
  }

  private onMessage(raw: unknown): void {
    if (!isWorkerToHostMessage(raw)) return;
    if (this.pendingInit?.id === raw.id) {
      const init = this.pendingInit;
      this.pendingInit = null;
      if (raw.type === 'ready') init.resolve(raw);
      else init.reject(new Error(raw.type === 'failed' ? raw.message : 'unexpected reply to init'));
      return;
    }
    this.settleRun(raw);
  }

  private settleRun(message: WorkerToHostMessage): void {
    const job = this.inFlight.get(message.id);
    this.inFlight.delete(message.id);
    if (job) {
      if (message.type === 'scores') {
        this.crashes = 0;
        job.resolve(message.scores);
      } else {
        job.reject(new Error(message.type === 'failed' ? message.message : 'unexpected reply to a batch'));
      }
    }
    void this.pump();
  }

  private onExit(worker: Worker, code: number): void {
    if (this.worker !== worker || this.isDisposed) return;
    this.worker = null;
    this.starting = null;
    this.crashes += 1;
    const cause = this.lastWorkerError ? `: ${this.lastWorkerError.message}` : '';
    const err = new Error(
      `the ONNX scoring worker stopped unexpectedly (exit code ${code})${cause}; the next request restarts it`,
    );
    if (this.pendingInit) {
      this.pendingInit.reject(err);
      this.pendingInit = null;
    }
    for (const job of this.inFlight.values()) job.reject(err);
    this.inFlight.clear();
    void this.pump();
  }

  private failQueued(err: Error): void {
    for (const job of this.queue.splice(0)) job.reject(err);
  }

  private failAll(err: Error): void {
    this.failQueued(err);
    for (const job of this.inFlight.values()) job.reject(err);
    this.inFlight.clear();
    if (this.pendingInit) {
      this.pendingInit.reject(err);
      this.pendingInit = null;
    }
  }
}

const SHUTDOWN_GRACE_MS = 5000;

/** Ask the worker to release its session and end; terminate it only after the grace period. */
async function stopWorker(worker: Worker, id: number): Promise<void> {
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage({ type: 'shutdown', id });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), SHUTDOWN_GRACE_MS)));
  const outcome = await Promise.race([ended, late]);
  clearTimeout(timer);
  if (outcome === 'late') await worker.terminate();
}
