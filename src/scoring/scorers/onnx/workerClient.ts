/**
 * The host's handle on the ONNX scoring worker, under the shared worker policy
 * (`../supervisedWorker`): started lazily with the model's `init` handshake, kept busy with up to
 * two batches at a time (one running, one waiting) so it never idles on a round trip, restarted
 * with backoff after a crash (a batch in flight is sent once more, then fails with a message),
 * and each batch cancellable.
 */
import { Worker } from 'node:worker_threads';
import {
  isWorkerToHostMessage,
  type InitRequest,
  type ReadyResponse,
  type WorkerToHostMessage,
} from '../../../protocol/onnx';
import { SupervisedWorker } from '../../workers/supervisedWorker';
import { abortError, stopAfterAsking } from '../../workers/workerPolicy';

export { abortError };

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

const MAX_IN_FLIGHT = 2;
/**
 * A batch cannot be interrupted inside native code, and one batch is bounded by the batch token
 * budget; a cancelled batch still running after this long means the worker is stuck.
 */
const CANCEL_GRACE_MS = 30_000;
const SHUTDOWN_GRACE_MS = 5000;

export class OnnxWorkerClient {
  private readonly worker: SupervisedWorker<WorkerToHostMessage>;

  constructor(options: WorkerClientOptions) {
    this.worker = new SupervisedWorker<WorkerToHostMessage>({
      name: 'ONNX scoring',
      spawn: () => new Worker(options.workerPath),
      isReply: isWorkerToHostMessage,
      idOf: (reply) => reply.id,
      isFinal: () => true,
      init: {
        message: (id) => ({ type: 'init', id, ...options.init }),
        check: (reply) => (reply.type === 'ready' ? null : new Error(reply.type === 'failed' ? reply.message : 'unexpected reply to init')),
      },
      maxInFlight: MAX_IN_FLIGHT,
      cancelGraceMs: CANCEL_GRACE_MS,
      ...(options.backoffInitialMs === undefined ? {} : { backoffInitialMs: options.backoffInitialMs }),
      ...(options.backoffMaxMs === undefined ? {} : { backoffMaxMs: options.backoffMaxMs }),
      // Ending a thread that still holds a native session can abort the whole process: ask first.
      stop: stopAfterAsking({ type: 'shutdown', id: -1 }, SHUTDOWN_GRACE_MS),
    });
  }

  /** What the worker reported when its session opened; null before the first start. */
  get ready(): ReadyResponse | null {
    const reply = this.worker.ready;
    return reply?.type === 'ready' ? reply : null;
  }

  /** Starts the worker and opens the session, if not already done. */
  async start(): Promise<ReadyResponse> {
    await this.worker.start().catch((error: unknown) => {
      throw error instanceof Error ? error : new Error(String(error));
    });
    const ready = this.ready;
    if (!ready) throw new Error('the ONNX scoring worker did not report its session');
    return ready;
  }

  /** Queues a batch; resolves with one score array per row. */
  async run(batch: WorkerBatch, signal?: AbortSignal): Promise<number[][]> {
    const reply = await this.worker.request((id) => ({ type: 'run', id, ...batch }), signal ? { signal } : {});
    if (reply.type === 'scores') return reply.scores;
    throw new Error(reply.type === 'failed' ? reply.message : 'unexpected reply to a batch');
  }

  /**
   * Stops the worker; queued and running batches fail. The worker is asked to release its session
   * and end by itself; it is terminated only if it has not ended within a grace period (a batch
   * still inside native code). Safe to call twice.
   */
  dispose(): Promise<void> {
    return this.worker.dispose();
  }
}
