/**
 * Several servers of one model, used as one: each request goes to the endpoint with the fewest
 * requests in flight; an endpoint that fails (5xx, 429, a timeout, a refused connection) is set
 * aside with backoff (or for as long as its `Retry-After` asks) while the others carry on, and gets
 * one request at a time until it answers again. With a single endpoint this is plain retry with
 * backoff. An endpoint that turns out to serve something else is retired for the session.
 */
import type { EndpointStatus } from '../../../protocol/endpoints';
import { backoffMs, EndpointError, gaveUp, outOfTime, requestOnce } from './request';
import { errorText } from '../../../core/errorText';

/** How the pool reaches its endpoints. */
export interface EndpointPoolOptions {
  /** Base URLs, already checked and without trailing slashes. */
  bases: readonly string[];
  /** Requests in flight per endpoint. */
  concurrency: number;
  timeoutMs: number;
  /** Extra attempts per request after the first, on the same endpoint later or on another. */
  retries: number;
  /** First backoff after a failure; it doubles with each failure in a row, plus jitter. */
  retryBaseMs: number;
  headers: Readonly<Record<string, string>>;
  /** Never repeated in a message (the API key). */
  secrets: readonly string[];
  maxResponseBytes?: number;
  /**
   * Checks an endpoint before its first request (that it serves the expected model). A transient
   * failure sets it aside; any other failure retires it.
   */
  verify?: (base: string, signal: AbortSignal) => Promise<void>;
  /** Told whenever an endpoint's state or load changes (for a status bar). */
  onChange?: () => void;
}

/** A parsed answer and the URL that gave it (for messages about it). */
export interface PoolAnswer {
  body: unknown;
  url: string;
}

interface Slot {
  base: string;
  inFlight: number;
  done: number;
  failures: number;
  /** Failures in a row: while above 0 the endpoint gets one request at a time. */
  streak: number;
  /**
   * Counts the times the endpoint was set aside. A request that fails after the endpoint was set
   * aside while it was in flight is part of the same failure (a dropped connection fails every
   * request on it at once): it does not lengthen the pause again.
   */
  failureEpoch: number;
  setAsideUntil: number;
  lastError?: string;
  /** The failure that set it aside (its `Retry-After` is what a waiting request is told). */
  lastFailure?: EndpointError;
  retiredBecause?: string;
  isVerified: boolean;
  verifying?: Promise<void>;
  lastPick: number;
}

/** The endpoints of one served model, and the requests made to them. */
export class EndpointPool {
  private readonly slots: Slot[];
  private readonly lifetime = new AbortController();
  private waiters: (() => void)[] = [];
  private picks = 0;

  constructor(private readonly options: EndpointPoolOptions) {
    if (options.bases.length === 0) throw new Error('an endpoint pool needs at least one URL');
    this.slots = options.bases.map((base) => ({ base, inFlight: 0, done: 0, failures: 0, streak: 0, failureEpoch: 0, setAsideUntil: 0, isVerified: !options.verify, lastPick: 0 }));
  }

  /** The base URLs, in the order given. */
  get bases(): string[] {
    return this.slots.map((s) => s.base);
  }

  /** How many requests may be in flight over all endpoints together. */
  get capacity(): number {
    return this.slots.length * this.options.concurrency;
  }

  /**
   * POST `body` (or GET when undefined) to `path` on the best endpoint, retrying elsewhere when it
   * fails. `timeoutMs` bounds the request's whole life, every attempt and every wait between them:
   * a server that asks for a pause past that limit fails the request now, saying so.
   */
  async request(path: string, body: unknown, signal?: AbortSignal): Promise<PoolAnswer> {
    const combined = signal ? AbortSignal.any([signal, this.lifetime.signal]) : this.lifetime.signal;
    const deadline = Date.now() + this.options.timeoutMs;
    let lastError: EndpointError | undefined;
    let attempts = 0;
    for (let attempt = 0; attempt <= this.options.retries; attempt++) {
      const slot = await this.pick(combined, { deadline, lastError, attempts, path });
      const epoch = slot.failureEpoch;
      attempts++;
      slot.inFlight++;
      this.changed();
      try {
        const unusable = await this.checkUsable(slot);
        if (unusable) {
          lastError = unusable;
          continue;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw outOfTime({ url: `${slot.base}${path}`, lastError, attempts: attempts - 1, limitMs: this.options.timeoutMs });
        const timeoutMs = this.attemptLimit(left, attempt);
        const answer = await requestOnce(`${slot.base}${path}`, body, { ...this.attemptOptions(combined), timeoutMs });
        this.succeeded(slot);
        return { body: answer, url: `${slot.base}${path}` };
      } catch (error) {
        combined.throwIfAborted();
        if (!(error instanceof EndpointError) || !error.isTransient) throw error;
        this.setAside(slot, error, epoch);
        lastError = error;
      } finally {
        slot.inFlight--;
        this.changed();
      }
    }
    throw gaveUp(this.slots[0]!.base + path, lastError, attempts);
  }

  /** Marks an endpoint as checked (it serves the expected model). */
  markVerified(base: string): void {
    const slot = this.slot(base);
    slot.isVerified = true;
    this.changed();
  }

  /** Sets an endpoint aside after a failure that may pass. */
  markFailed(base: string, error: EndpointError): void {
    this.setAside(this.slot(base), error);
  }

  /** Stops using an endpoint for the rest of the session. */
  retire(base: string, reason: string): void {
    this.slot(base).retiredBecause = reason;
    this.changed();
  }

  /** Each endpoint's state, in the order given. */
  status(): EndpointStatus[] {
    return this.slots.map((s) => {
      const status: EndpointStatus = { url: s.base, state: 'ready', inFlight: s.inFlight, done: s.done, failures: s.failures };
      if (s.retiredBecause !== undefined) return { ...status, state: 'retired', lastError: s.retiredBecause };
      // Set aside until it answers again, not merely until its pause ends.
      if (s.streak > 0) return { ...status, state: 'set-aside', retryAt: s.setAsideUntil, ...(s.lastError ? { lastError: s.lastError } : {}) };
      return status;
    });
  }

  /** Cancels every request and wait; the pool cannot be used afterwards. */
  dispose(): void {
    this.lifetime.abort(new DOMException('the endpoint pool was closed', 'AbortError'));
    this.wake();
  }

  /**
   * How long one attempt may take, of the `left` ms of its request: all of it with one endpoint
   * (a first attempt sent at once gets the limit itself, which its message names); half when
   * another endpoint could take the request over, so a hanging one leaves time to move.
   */
  private attemptLimit(left: number, attempt: number): number {
    const whole = left > this.options.timeoutMs - 100 ? this.options.timeoutMs : left;
    const isLast = attempt >= this.options.retries;
    const others = this.slots.filter((s) => s.retiredBecause === undefined).length > 1;
    return others && !isLast ? Math.max(1, Math.floor(whole / 2)) : whole;
  }

  private attemptOptions(signal: AbortSignal) {
    const { timeoutMs, headers, secrets, maxResponseBytes } = this.options;
    return { timeoutMs, headers, secrets, signal, ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }) };
  }

  private slot(base: string): Slot {
    const slot = this.slots.find((s) => s.base === base);
    if (!slot) throw new Error(`${base} is not one of this pool's endpoints`);
    return slot;
  }

  /**
   * Runs the endpoint's check once; the failure when it failed (the endpoint is then set aside, or
   * retired when the failure will not pass), null when the endpoint may be used.
   */
  private async checkUsable(slot: Slot): Promise<EndpointError | null> {
    const { verify } = this.options;
    if (slot.isVerified || !verify) return null;
    slot.verifying ??= verify(slot.base, this.lifetime.signal).then(() => this.markVerified(slot.base)).finally(() => (slot.verifying = undefined));
    try {
      await slot.verifying;
      return null;
    } catch (error) {
      this.lifetime.signal.throwIfAborted();
      const failure = error instanceof EndpointError ? error : new EndpointError(errorText(error), { url: slot.base });
      if (failure.isTransient) this.setAside(slot, failure);
      else this.retire(slot.base, failure.message);
      return failure;
    }
  }

  private succeeded(slot: Slot): void {
    slot.done++;
    slot.streak = 0;
    slot.lastError = undefined;
    slot.lastFailure = undefined;
  }

  /**
   * Sets an endpoint aside after a failure that may pass. `startedAt`: the endpoint's failure epoch
   * when the failed request was sent; a request in flight when the endpoint was already set aside
   * counts as a failure but does not double the pause (eight requests dropped with one connection
   * pushed the pause to its 30 s cap at once).
   */
  private setAside(slot: Slot, error: EndpointError, startedAt?: number): void {
    slot.failures++;
    slot.lastError = error.message;
    slot.lastFailure = error;
    if (startedAt !== undefined && startedAt < slot.failureEpoch) {
      if (error.retryAfterMs !== undefined) slot.setAsideUntil = Math.max(slot.setAsideUntil, Date.now() + error.retryAfterMs);
      this.changed();
      return;
    }
    slot.failureEpoch++;
    slot.streak++;
    slot.setAsideUntil = Date.now() + (error.retryAfterMs ?? backoffMs(this.options.retryBaseMs, slot.streak - 1));
    this.changed();
  }

  /** An endpoint that failed gets one request at a time until it answers again. */
  private limitOf(slot: Slot): number {
    return slot.streak > 0 ? 1 : this.options.concurrency;
  }

  /**
   * The usable endpoint with the fewest requests in flight, waiting while none is free; throws
   * when the wait would pass the request's deadline.
   */
  private async pick(signal: AbortSignal, request: { deadline: number; lastError: EndpointError | undefined; attempts: number; path: string }): Promise<Slot> {
    for (;;) {
      signal.throwIfAborted();
      const now = Date.now();
      const live = this.slots.filter((s) => s.retiredBecause === undefined);
      if (live.length === 0) throw this.noneLeft();
      const open = live.filter((s) => s.setAsideUntil <= now && s.inFlight < this.limitOf(s));
      if (open.length > 0) {
        // Fewest in flight; among equals, the one picked longest ago, so load spreads evenly.
        const best = open.reduce((a, b) => (b.inFlight < a.inFlight || (b.inFlight === a.inFlight && b.lastPick < a.lastPick) ? b : a));
        best.lastPick = ++this.picks;
        return best;
      }
      const returns = live.filter((s) => s.setAsideUntil > now).map((s) => s.setAsideUntil - now);
      const hasBusySlot = live.some((s) => s.setAsideUntil <= now);
      const wait = returns.length > 0 ? Math.min(...returns) : undefined;
      // Waiting for a busy endpoint may end sooner than its pause says; waiting out a pause past the deadline cannot.
      if (now >= request.deadline || (!hasBusySlot && wait !== undefined && now + wait > request.deadline)) {
        const soonest = live.find((s) => s.setAsideUntil - now === wait);
        const lastError = request.lastError ?? soonest?.lastFailure;
        throw outOfTime({ url: `${(soonest ?? this.slots[0]!).base}${request.path}`, lastError, attempts: request.attempts, limitMs: this.options.timeoutMs, waitMs: wait });
      }
      await this.waitForChange(Math.min(wait ?? Number.POSITIVE_INFINITY, request.deadline - now), signal);
    }
  }

  private noneLeft(): EndpointError {
    const reasons = this.slots.map((s) => `${s.base}: ${s.retiredBecause ?? 'not used'}`).join('; ');
    return new EndpointError(`no endpoint is left to send requests to (${reasons})`, { url: this.slots[0]!.base, isConfiguration: true });
  }

  /** Resolves when a request finishes, after `ms`, or rejects when `signal` aborts. */
  private waitForChange(ms: number | undefined, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(done);
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  private changed(): void {
    this.wake();
    this.options.onChange?.();
  }
}
