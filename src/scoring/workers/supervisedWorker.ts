/**
 * The one policy every worker thread of PROF Lens runs under (the analysis worker, the ONNX
 * scoring worker, the CAS worker), so that none of them can leave a request hanging:
 * - every request carries an id and settles exactly once (its final reply, a failure, a cancel);
 * - a cancel that the worker does not answer in time (it is computing) stops the worker and starts
 *   a fresh one, so a stuck computation never holds up the requests behind it;
 * - a worker that dies is started again, after a backoff that doubles per consecutive crash;
 * - work in flight when it died is sent once more, then reported as failed with a message;
 * - an optional watchdog stops a worker that stays silent too long while it holds work (the CAS's
 *   time budget), failing only the request it was on.
 */
import type { Worker } from 'node:worker_threads';
import { abortError, WorkerCrashError, WorkerStallError, type RequestOptions, type SupervisedWorkerOptions } from './workerPolicy';

interface Job<Reply> {
  build: (id: number) => unknown;
  /** The start handshake, which is never retried and never counts as a request. */
  isInit?: boolean;
  options: RequestOptions<Reply>;
  attemptsLeft: number;
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

interface Running<Reply> {
  worker: Worker;
  ready: Promise<void>;
  /** Jobs posted to this worker, by request id, in posting order. */
  inFlight: Map<number, Job<Reply>>;
  /** Cancelled requests the worker has not answered yet, with the timer that stops it. */
  cancelling: Map<number, ReturnType<typeof setTimeout>>;
  isRetiring: boolean;
  lastError: Error | null;
}

/** A worker thread under the shared policy; see the module comment. */
export class SupervisedWorker<Reply> {
  private current: Running<Reply> | null = null;
  private readonly queue: Job<Reply>[] = [];
  private nextId = 1;
  private crashes = 0;
  private isDisposed = false;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private readyReply: Reply | null = null;
  private readonly restartListeners = new Set<() => void>();

  constructor(private readonly options: SupervisedWorkerOptions<Reply>) {}

  /** The final reply of the last successful handshake (e.g. the provider a model opened on). */
  get ready(): Reply | null {
    return this.readyReply;
  }

  /** Number of requests sent or waiting. */
  get pending(): number {
    return this.queue.length + (this.current?.inFlight.size ?? 0);
  }

  /** Starts the worker (and its handshake) now rather than on the first request. */
  async start(): Promise<void> {
    if (this.isDisposed) throw new Error(`the ${this.options.name} worker has been disposed`);
    await this.running().ready;
  }

  /** Called after a worker was started again to replace one that died or was stopped. */
  onDidRestart(listener: () => void): { dispose(): void } {
    this.restartListeners.add(listener);
    return { dispose: () => this.restartListeners.delete(listener) };
  }

  /** Sends a request built around its id; resolves with its final reply. */
  request(build: (id: number) => unknown, options: RequestOptions<Reply> = {}): Promise<Reply> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.isDisposed) return Promise.reject(new Error(`the ${this.options.name} worker has been disposed`));
    return new Promise<Reply>((resolve, reject) => {
      const onAbort = (): void => this.cancel(job);
      const detach = (): void => signal?.removeEventListener('abort', onAbort);
      const job: Job<Reply> = {
        build,
        options,
        attemptsLeft: options.retries ?? 1,
        resolve: (reply) => (detach(), resolve(reply)),
        reject: (error) => (detach(), reject(error)),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      void this.pump();
    });
  }

  /** Posts a message that answers nothing (configuration, housekeeping) to a running worker. */
  notify(message: unknown): void {
    this.current?.worker.postMessage(message);
  }

  /** Fails everything, stops the worker, and refuses later requests. Safe to call twice. */
  async dispose(): Promise<void> {
    if (this.isDisposed) return;
    this.isDisposed = true;
    const error = new Error(`the ${this.options.name} worker has been disposed`);
    for (const job of this.queue.splice(0)) job.reject(error);
    const running = this.current;
    this.current = null;
    clearTimeout(this.watchdog);
    if (!running) return;
    for (const job of running.inFlight.values()) job.reject(error);
    running.inFlight.clear();
    await this.retire(running);
  }

  private running(): Running<Reply> {
    if (this.current) return this.current;
    const delay = this.crashes === 0 ? 0 : Math.min(
      (this.options.backoffInitialMs ?? 250) * 2 ** (this.crashes - 1),
      this.options.backoffMaxMs ?? 5000,
    );
    const worker = this.options.spawn();
    const running: Running<Reply> = {
      worker, ready: Promise.resolve(), inFlight: new Map(), cancelling: new Map(), isRetiring: false, lastError: null,
    };
    this.current = running;
    worker.on('message', (message: unknown) => this.onMessage(running, message));
    worker.on('error', (error) => (running.lastError = error));
    worker.on('exit', (code) => this.onExit(running, code));
    running.ready = this.handshake(running, delay);
    running.ready.catch(() => undefined);
    return running;
  }

  private async handshake(running: Running<Reply>, delay: number): Promise<void> {
    // The backoff delays the requests, not the thread's start: a thread starting costs nothing to wait on.
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const init = this.options.init;
    if (!init) return;
    const reply = await new Promise<Reply>((resolve, reject) => {
      const id = this.nextId++;
      running.inFlight.set(id, { build: init.message, isInit: true, options: {}, attemptsLeft: 0, resolve, reject });
      running.worker.postMessage(init.message(id));
    });
    const failure = init.check(reply);
    if (failure) throw failure;
    this.readyReply = reply;
    this.idleCheck(running);
  }

  private async pump(): Promise<void> {
    if (this.queue.length === 0 || this.isDisposed) return;
    const running = this.running();
    try {
      await running.ready;
    } catch (error) {
      // A worker that cannot start will not start on retry either: stop it, fail what waits, once.
      if (this.current === running) {
        this.current = null;
        void this.retire(running);
      }
      const failure = error instanceof Error ? error : new Error(String(error));
      for (const job of this.queue.splice(0)) job.reject(failure);
      return;
    }
    if (this.current !== running) return;
    const limit = this.options.maxInFlight ?? Number.POSITIVE_INFINITY;
    while (this.queue.length > 0 && running.inFlight.size + running.cancelling.size < limit) {
      const job = this.queue.shift() as Job<Reply>;
      const id = this.nextId++;
      running.inFlight.set(id, job);
      if (this.options.unrefWhenIdle) running.worker.ref();
      running.worker.postMessage(job.build(id));
    }
    this.armWatchdog();
  }

  private onMessage(running: Running<Reply>, message: unknown): void {
    if (!this.options.isReply(message)) return;
    const id = this.options.idOf(message);
    if (id === undefined) return;
    if (running === this.current) this.armWatchdog();
    const isFinal = this.options.isFinal(message);
    const late = running.cancelling.get(id);
    if (late !== undefined) {
      // The cancelled request has let go of the worker: no need to stop it.
      if (isFinal) {
        clearTimeout(late);
        running.cancelling.delete(id);
        void this.pump();
      }
      return;
    }
    const job = running.inFlight.get(id);
    if (!job) return;
    if (!isFinal) return job.options.onReply?.(message);
    running.inFlight.delete(id);
    // The watchdog now follows the oldest request left, or stops: a timer left armed for a finished
    // request would keep a command's process alive for the whole budget after its work is done.
    if (running === this.current) this.armWatchdog();
    if (!job.isInit) this.crashes = 0;
    job.resolve(message);
    this.idleCheck(running);
    void this.pump();
  }

  private cancel(job: Job<Reply>): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    const running = this.current;
    const id = running ? [...running.inFlight].find(([, j]) => j === job)?.[0] : undefined;
    job.reject(abortError(job.options.signal));
    if (running === null || id === undefined) return;
    running.inFlight.delete(id);
    if (this.options.cancelMessage) running.worker.postMessage(this.options.cancelMessage(id));
    // A worker busy in synchronous code cannot read the cancel; past the grace it is replaced.
    const timer = setTimeout(() => {
      if (this.current !== running) return;
      running.cancelling.delete(id);
      this.replace(running);
    }, this.options.cancelGraceMs ?? 2_000);
    timer.unref?.();
    running.cancelling.set(id, timer);
  }

  private armWatchdog(): void {
    clearTimeout(this.watchdog);
    const running = this.current;
    const stallMs = this.options.stallMs;
    const oldest = (): [number, Job<Reply>] | undefined => [...(running?.inFlight ?? [])].find(([, j]) => !j.isInit);
    if (stallMs === undefined || !running || oldest() === undefined) return;
    this.watchdog = setTimeout(() => {
      const stalled = oldest();
      if (this.current !== running || stalled === undefined) return;
      const [id, job] = stalled;
      running.inFlight.delete(id);
      job.reject(new WorkerStallError(`the ${this.options.name} worker sent nothing for ${stallMs} ms`));
      this.replace(running);
    }, stallMs);
  }

  /** Stops a worker on purpose and starts another for the work it held (not a crash: no backoff, no retry spent). */
  private replace(running: Running<Reply>): void {
    if (this.current !== running) return;
    this.current = null;
    clearTimeout(this.watchdog);
    this.requeue(running, false);
    void this.retire(running);
    this.afterRestart();
  }

  private onExit(running: Running<Reply>, code: number): void {
    for (const timer of running.cancelling.values()) clearTimeout(timer);
    running.cancelling.clear();
    if (running.isRetiring || this.current !== running || this.isDisposed) return;
    this.current = null;
    clearTimeout(this.watchdog);
    this.crashes += 1;
    const cause = running.lastError ? `: ${running.lastError.message}` : '';
    const diedStarting = [...running.inFlight.values()].some((j) => j.isInit);
    this.requeue(running, true, `the ${this.options.name} worker stopped unexpectedly (exit code ${code})${cause}`);
    // A worker that dies while starting fails what waits (see pump); it is not started in a loop.
    if (!diedStarting) this.afterRestart();
  }

  /**
   * Puts a dead worker's requests back at the head of the queue. After a crash each spends one
   * retry; a request with none left fails with the crash's message.
   */
  private requeue(running: Running<Reply>, isCrash: boolean, message = ''): void {
    const again: Job<Reply>[] = [];
    for (const job of running.inFlight.values()) {
      if (job.isInit) {
        job.reject(new WorkerCrashError(message || `the ${this.options.name} worker was stopped`));
      } else if (!isCrash || job.attemptsLeft > 0) {
        if (isCrash) job.attemptsLeft -= 1;
        job.options.onRetry?.();
        again.push(job);
      } else {
        const tries = (job.options.retries ?? 1) + 1;
        job.reject(new WorkerCrashError(`${message}${tries > 1 ? `; tried ${tries} times` : ''}`));
      }
    }
    running.inFlight.clear();
    this.queue.unshift(...again);
  }

  private afterRestart(): void {
    // Started again only when there is work; a later request starts it otherwise.
    if (this.queue.length > 0) void this.pump();
    for (const listener of this.restartListeners) listener();
  }

  private idleCheck(running: Running<Reply>): void {
    if (this.options.unrefWhenIdle && running.inFlight.size === 0 && this.queue.length === 0) running.worker.unref();
  }

  private async retire(running: Running<Reply>): Promise<void> {
    running.isRetiring = true;
    for (const timer of running.cancelling.values()) clearTimeout(timer);
    running.cancelling.clear();
    await (this.options.stop ?? ((w: Worker) => w.terminate().then(() => undefined)))(running.worker).catch(() => undefined);
  }
}
