/**
 * The parts of the shared worker policy that its users name: how a worker is described (its
 * protocol, how it starts and stops, its limits), a request's options, the errors a request can
 * fail with, and a stop for workers holding native resources. The policy itself is
 * `SupervisedWorker` (supervisedWorker.ts).
 */
import type { Worker } from 'node:worker_threads';

/** A message with the id of the request it answers; everything a worker sends is read through this. */
export interface WorkerProtocol<Reply> {
  /** Checks an incoming message; anything else is ignored. */
  isReply(message: unknown): message is Reply;
  /** The request a reply belongs to; undefined for messages that answer no request. */
  idOf(reply: Reply): number | undefined;
  /** Whether the reply closes its request (the last of zero or more intermediate replies). */
  isFinal(reply: Reply): boolean;
}

/** How a worker is started and stopped, and the limits it runs under. */
export interface SupervisedWorkerOptions<Reply> extends WorkerProtocol<Reply> {
  /** For messages: `analysis`, `ONNX scoring`, `CAS`. */
  name: string;
  /** Starts a worker thread (tests pass a wrapper that crashes on cue). */
  spawn: () => Worker;
  /**
   * A handshake run on every start before any request is sent (open a model, load an engine):
   * the message to send, and whether the final reply means success (an Error when it does not).
   * A failed handshake fails the waiting requests and is not retried until the next request.
   */
  init?: { message: (id: number) => unknown; check: (reply: Reply) => Error | null };
  /** Asks the worker to abandon a request; absent when the protocol has no cancel message. */
  cancelMessage?: (id: number) => unknown;
  /** How long a cancelled request may keep the worker busy before it is stopped (default 2 s). */
  cancelGraceMs?: number;
  /** Stops a worker that holds work and sends nothing for this long (default: no watchdog). */
  stallMs?: number;
  /** Requests in flight at once; the rest wait in order (default: no limit). */
  maxInFlight?: number;
  /** First restart delay after a crash, doubled per consecutive crash (default 250 ms). */
  backoffInitialMs?: number;
  /** Upper bound of the restart delay (default 5 s). */
  backoffMaxMs?: number;
  /** How to stop a worker (default `terminate`; the ONNX worker first asks it to release its session). */
  stop?: (worker: Worker) => Promise<void>;
  /** Let the process exit while the worker is idle (command-line use). */
  unrefWhenIdle?: boolean;
}

/** Options of one request. */
export interface RequestOptions<Reply> {
  signal?: AbortSignal;
  /** Intermediate replies (progress, chunks), in order. */
  onReply?: (reply: Reply) => void;
  /** Called before the request is sent again to a restarted worker (drop what its replies built). */
  onRetry?: () => void;
  /** Times the request is sent again after its worker died under it (default 1). */
  retries?: number;
}

/** The worker died (twice, for a retried request) while it held the request. */
export class WorkerCrashError extends Error {
  override readonly name = 'WorkerCrashError';
}

/** The watchdog stopped the worker: it was silent for `stallMs` while on this request. */
export class WorkerStallError extends Error {
  override readonly name = 'WorkerStallError';
}

/**
 * A `stop` for workers that hold native resources (an ONNX session, a nested worker): ask them to
 * release and end with `message`, and terminate only one that has not ended after `graceMs`.
 */
export function stopAfterAsking(message: unknown, graceMs: number): (worker: Worker) => Promise<void> {
  return async (worker) => {
    const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage(message);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
    const outcome = await Promise.race([ended, late]);
    clearTimeout(timer);
    if (outcome === 'late') await worker.terminate();
  };
}

/** The error a cancelled request rejects with. */
export function abortError(signal: AbortSignal | undefined, what = 'request'): Error {
  if (signal?.reason instanceof Error) return signal.reason;
  const error = new Error(`${what} cancelled`);
  error.name = 'AbortError';
  return error;
}
