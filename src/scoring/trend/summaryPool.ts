/**
 * The summary workers of a training run: a fixed number of worker threads, started when first
 * needed, each summarising one file at a time; files wait in a queue. Every job ends exactly once
 * (its figures, or an error naming the file): a worker that dies fails its job and is replaced for
 * the next one, so nothing stays "running" forever.
 */
import { Worker } from 'node:worker_threads';
import type { FileFigures } from '../../core/run/runSummary';
import type { ProfSettings } from '../../core/settings';
import type { ScorerChoice } from '../../core/scorerChoice';
import type { ModelConfig } from '../../protocol/modelConfig';
import { isSummaryWorkerToHost, type HostToSummaryWorker, type SummaryWorkerToHost } from '../../protocol/trend';

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

interface Pending {
  id: number;
  job: SummaryJob;
  options: JobOptions;
  resolve: (outcome: SummaryOutcome) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker | null;
  current: Pending | null;
}

/** Worker threads that summarise files, `size` at a time. */
export class SummaryPool {
  private readonly slots: Slot[];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private isDisposed = false;

  constructor(private readonly workerPath: string, size: number) {
    this.slots = Array.from({ length: Math.max(1, Math.floor(size)) }, () => ({ worker: null, current: null }));
  }

  /** How many files are summarised at once. */
  get size(): number {
    return this.slots.length;
  }

  /** Summarise a file; resolves with its figures or rejects with a message naming what went wrong. */
  summarise(job: SummaryJob, options: JobOptions = {}): Promise<SummaryOutcome> {
    if (this.isDisposed) return Promise.reject(new Error('the summary workers were stopped'));
    return new Promise((resolve, reject) => {
      const pending: Pending = { id: this.nextId++, job, options, resolve, reject };
      options.signal?.addEventListener('abort', () => this.cancel(pending), { once: true });
      this.queue.push(pending);
      this.pump();
    });
  }

  /** Stops every worker (releasing a model first); waiting jobs fail. */
  async dispose(): Promise<void> {
    this.isDisposed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('cancelled'));
    await Promise.all(this.slots.map((slot) => this.stop(slot)));
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.current || this.queue.length === 0) continue;
      const pending = this.queue.shift()!;
      if (pending.options.signal?.aborted) {
        pending.reject(new Error('cancelled'));
        continue;
      }
      slot.current = pending;
      const worker = this.workerOf(slot);
      // A busy worker keeps the process alive; an idle one never holds the CLI open.
      worker.ref();
      worker.postMessage({ type: 'summarise', id: pending.id, ...pending.job } satisfies HostToSummaryWorker);
    }
  }

  private workerOf(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    const worker = new Worker(this.workerPath);
    slot.worker = worker;
    worker.on('message', (message: unknown) => {
      if (isSummaryWorkerToHost(message)) this.receive(slot, message);
    });
    worker.on('error', (error) => this.lost(slot, worker, error.message));
    worker.on('exit', (code) => this.lost(slot, worker, `it exited with code ${code}`));
    return worker;
  }

  private receive(slot: Slot, message: SummaryWorkerToHost): void {
    const pending = slot.current;
    if (!pending || pending.id !== message.id) return;
    if (message.type === 'progress') {
      pending.options.onBytes?.(message.bytes);
      return;
    }
    slot.current = null;
    slot.worker?.unref();
    if (message.type === 'summarised') {
      pending.resolve({ figures: message.figures, scorerLabel: message.scorerLabel, ...(message.modelError === undefined ? {} : { modelError: message.modelError }) });
    } else pending.reject(new Error(message.isCancelled ? 'cancelled' : message.message));
    this.pump();
  }

  /** The worker died: its job fails (naming why), and the next job gets a fresh worker. */
  private lost(slot: Slot, worker: Worker, why: string): void {
    if (slot.worker !== worker) return;
    slot.worker = null;
    const pending = slot.current;
    slot.current = null;
    if (pending && !this.isDisposed) pending.reject(new Error(`the summary worker stopped while reading ${pending.job.file}: ${why}`));
    else pending?.reject(new Error('cancelled'));
    if (!this.isDisposed) this.pump();
  }

  private cancel(pending: Pending): void {
    const index = this.queue.indexOf(pending);
    if (index >= 0) {
      this.queue.splice(index, 1);
      pending.reject(new Error('cancelled'));
      return;
    }
    const slot = this.slots.find((s) => s.current === pending);
    slot?.worker?.postMessage({ type: 'cancel', id: pending.id } satisfies HostToSummaryWorker);
  }

  private async stop(slot: Slot): Promise<void> {
    const worker = slot.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'shutdown' } satisfies HostToSummaryWorker);
    const timer = setTimeout(() => void worker.terminate(), 2000);
    await exited;
    clearTimeout(timer);
  }
}
