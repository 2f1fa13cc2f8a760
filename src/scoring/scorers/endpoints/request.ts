/**
 * One JSON request to a model server, with what a long scoring run needs from it: a timeout on
 * the request's whole life (its attempts and the waits between them), a cap on how much of an
 * answer is read, `Retry-After` read from 429 and 503 answers, failures classified as "may pass"
 * (5xx, 408, 429, timeouts, refused or reset connections) or "will not", and readable messages
 * that never repeat the API key.
 */

/** A failure a user can act on: names the URL, the status and the server's words. */
export class EndpointError extends Error {
  /** HTTP status, when the server answered. */
  readonly status: number | undefined;
  readonly url: string;
  /** The message the server put in its error body, when it sent one. */
  readonly serverMessage: string | undefined;
  /** True when trying again later (or elsewhere) might succeed. */
  readonly isTransient: boolean;
  /** How long the server asked to be left alone (`Retry-After`), in ms. */
  readonly retryAfterMs: number | undefined;
  /**
   * The server answered, but not as the configured scorer expects (wrong shape, wrong pair
   * count, another model): a configuration error that stops the run instead of scoring nothing.
   */
  readonly isConfiguration: boolean;

  constructor(
    message: string,
    details: { url: string; status?: number; serverMessage?: string; isTransient?: boolean; retryAfterMs?: number; isConfiguration?: boolean },
  ) {
    super(message);
    this.name = 'EndpointError';
    this.url = details.url;
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.isTransient = details.isTransient ?? false;
    this.retryAfterMs = details.retryAfterMs;
    this.isConfiguration = details.isConfiguration ?? false;
  }
}

/** How one attempt is made. */
export interface AttemptOptions {
  timeoutMs: number;
  headers: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  /** Answers longer than this are refused unread. Default 16 MiB. */
  maxResponseBytes?: number;
  /** Strings that must never appear in an error message (the API key). */
  secrets?: readonly string[];
}

/** How one logical request is attempted against a single URL. */
export interface RequestPolicy extends AttemptOptions {
  /** Extra attempts after the first. */
  retries: number;
  /** First backoff delay; it doubles per attempt, plus up to the same again as jitter. */
  retryBaseMs: number;
}

import { capText, previewJson } from '../../../core/presentation/capText';
import { errorText } from '../../../core/errorText';

const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
const MAX_BACKOFF_MS = 30_000;
/** A server asking for a longer pause than this (a daily quota) fails now rather than stalling the run. */
export const MAX_RETRY_AFTER_MS = 300_000;
const MAX_MESSAGE_CHARS = 500;

/** GET (no body) or POST `url` once and return the parsed JSON answer. */
export async function requestOnce(url: string, body: unknown, options: AttemptOptions): Promise<unknown> {
  options.signal?.throwIfAborted();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  let response: Response;
  let text: string;
  try {
    response = await fetchSameOrigin(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal,
    });
    text = await readCapped(response, url, limit, signal);
  } catch (error) {
    options.signal?.throwIfAborted();
    if (error instanceof EndpointError) throw error;
    throw networkError(url, error, timeout.aborted ? options.timeoutMs : undefined);
  }
  if (response.status >= 200 && response.status < 300) return parseBody(url, text, options.secrets);
  throw statusError({ url, status: response.status, text, retryAfter: response.headers.get('retry-after'), secrets: options.secrets });
}

/** Redirects followed within one origin before the request fails. */
const MAX_REDIRECTS = 5;

/**
 * `fetch`, following redirects only within the URL's own origin (scheme, host and port). A
 * redirect to another origin is refused: followed, a 307 would send the rollouts (and an API key
 * the server's proxy added) to a server the user never named.
 */
async function fetchSameOrigin(url: string, init: RequestInit): Promise<Response> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await fetch(current, { ...init, redirect: 'manual' });
    if (response.status < 300 || response.status >= 400 || response.status === 304) return response;
    const location = response.headers.get('location');
    await response.body?.cancel().catch(() => undefined);
    if (location === null) return response;
    const next = new URL(location, current);
    if (next.origin !== new URL(url).origin) {
      throw new EndpointError(
        `${url} redirected the request to ${capText(next.href, 200)}, another server: refused (rollouts are only sent to the URL you give); if that server is the right one, use its URL`,
        { url, status: response.status, isConfiguration: true },
      );
    }
    if (hop >= MAX_REDIRECTS) throw new EndpointError(`${url} redirected the request more than ${MAX_REDIRECTS} times`, { url, status: response.status, isConfiguration: true });
    current = next.href;
  }
}

/**
 * `requestOnce` with retries and backoff for transient failures, honouring `Retry-After`;
 * `timeoutMs` bounds the whole request, every attempt and wait together.
 */
export async function requestJson(url: string, body: unknown, policy: RequestPolicy): Promise<unknown> {
  const deadline = Date.now() + policy.timeoutMs;
  let lastError: EndpointError | undefined;
  let attempts = 0;
  for (let attempt = 0; attempt <= policy.retries; attempt++) {
    if (attempt > 0) {
      const wait = lastError?.retryAfterMs ?? backoffMs(policy.retryBaseMs, attempt - 1);
      if (Date.now() + wait >= deadline) throw outOfTime({ url, lastError, attempts, limitMs: policy.timeoutMs, waitMs: wait });
      await sleep(wait, policy.signal);
    }
    try {
      attempts++;
      return await requestOnce(url, body, { ...policy, timeoutMs: attempts === 1 ? policy.timeoutMs : Math.max(1, Math.min(policy.timeoutMs, deadline - Date.now())) });
    } catch (error) {
      if (!(error instanceof EndpointError) || !error.isTransient) throw error;
      lastError = error;
    }
  }
  throw gaveUp(url, lastError, attempts);
}

/** The error after the last attempt, saying how many there were. */
export function gaveUp(url: string, lastError: EndpointError | undefined, attempts: number): EndpointError {
  const plural = attempts === 1 ? '' : 's';
  return new EndpointError(`${lastError?.message ?? 'request failed'} (gave up after ${attempts} attempt${plural})`, {
    url: lastError?.url ?? url,
    ...(lastError?.status !== undefined ? { status: lastError.status } : {}),
    ...(lastError?.serverMessage !== undefined ? { serverMessage: lastError.serverMessage } : {}),
    isTransient: true,
  });
}

/**
 * The error when a request's time is up: its limit covers every attempt and every wait, so a
 * server asking for a longer pause (`Retry-After`) is named with the pause it asked for.
 */
export function outOfTime(at: { url: string; lastError: EndpointError | undefined; attempts: number; limitMs: number; waitMs?: number }): EndpointError {
  const limit = `${formatSeconds(at.limitMs)} limit on one request (all its attempts and waits)`;
  const asked = at.lastError?.retryAfterMs;
  const why = asked !== undefined && at.waitMs !== undefined
    ? `the server asks to wait ${formatSeconds(asked)}; giving up at the ${limit}`
    : `giving up at the ${limit}`;
  const plural = at.attempts === 1 ? '' : 's';
  return new EndpointError(`${at.lastError?.message ?? `no answer from ${at.url}`}: ${why}, after ${at.attempts} attempt${plural}`, {
    url: at.lastError?.url ?? at.url,
    ...(at.lastError?.status !== undefined ? { status: at.lastError.status } : {}),
    ...(at.lastError?.serverMessage !== undefined ? { serverMessage: at.lastError.serverMessage } : {}),
  });
}

function formatSeconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${ms < 10_000 ? Number((ms / 1000).toFixed(1)) : Math.round(ms / 1000)} s`;
}

/** Exponential backoff with jitter, so the retries of many parallel requests do not arrive together. */
export function backoffMs(baseMs: number, retryIndex: number): number {
  const exponential = baseMs * 2 ** retryIndex;
  return Math.min(MAX_BACKOFF_MS, exponential + Math.random() * exponential);
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * `Retry-After` in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Replaces every secret in `text` so an echoed key never reaches a message, a log or a file. */
export function redact(text: string, secrets: readonly string[] | undefined): string {
  let out = text;
  for (const secret of secrets ?? []) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

/** Reads the body, stopping (and failing) as soon as it grows past `limit` bytes. */
async function readCapped(response: Response, url: string, limit: number, signal: AbortSignal): Promise<string> {
  const tooLarge = (): EndpointError =>
    new EndpointError(`${url} answered with more than ${limit} bytes; refusing to read it (is this a model server?)`, { url, status: response.status });
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    signal.throwIfAborted();
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function parseBody(url: string, text: string, secrets: readonly string[] | undefined): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new EndpointError(`${url} answered with something that is not JSON: ${clip(redact(text, secrets))}`, { url, isConfiguration: true });
  }
}

interface StatusAnswer {
  url: string;
  status: number;
  text: string;
  retryAfter: string | null;
  secrets: readonly string[] | undefined;
}

function statusError({ url, status, text, retryAfter, secrets }: StatusAnswer): EndpointError {
  const serverMessage = redact(errorMessageOf(text), secrets);
  // 408 and 429 are the two 4xx answers that explicitly mean "not now" rather than "never".
  const isTransient = status >= 500 || status === 408 || status === 429;
  const retryAfterMs = isTransient ? parseRetryAfter(retryAfter) : undefined;
  const message = `HTTP ${status} from ${url}: ${serverMessage || '(empty body)'}`;
  if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
    const wait = `the server asks to wait ${Math.round(retryAfterMs / 1000)} s, longer than the ${MAX_RETRY_AFTER_MS / 1000} s PROF Lens waits`;
    return new EndpointError(`${message} (${wait})`, { url, status, serverMessage });
  }
  return new EndpointError(message, { url, status, serverMessage, isTransient, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
}

function networkError(url: string, error: unknown, timedOutAfterMs: number | undefined): EndpointError {
  if (timedOutAfterMs !== undefined) {
    return new EndpointError(`no answer from ${url} within ${timedOutAfterMs} ms`, { url, isTransient: true });
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : '';
  const detail = code || errorText(cause);
  return new EndpointError(`cannot reach ${url} (${detail})`, { url, isTransient: true });
}

/**
 * vLLM writes `{"message": ...}` or `{"error": {"message": ...}}` depending on the version (OpenAI
 * writes the latter); request validation (FastAPI) writes `{"detail": ...}`.
 */
function errorMessageOf(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    const found = messageField(parsed) ?? messageField(field(parsed, 'error'));
    if (found !== undefined) return clip(found);
    const detail = field(parsed, 'detail');
    if (detail !== undefined) return clip(typeof detail === "string" ? detail : previewJson(detail, MAX_MESSAGE_CHARS));
  } catch {
    // Not JSON: a proxy's HTML page or plain text; show it as it is.
  }
  return clip(text.trim());
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function messageField(value: unknown): string | undefined {
  const message = typeof value === 'string' ? undefined : field(value, 'message');
  return typeof message === 'string' ? message : undefined;
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}
