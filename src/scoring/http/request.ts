/**
 * JSON over HTTP with the failure handling a long scoring run needs: a per-attempt timeout,
 * retries with exponential backoff and jitter for failures that may pass (5xx, 408, 429, timeouts,
 * refused or reset connections), and immediate, readable errors for the ones that will not.
 */

/** An HTTP scorer failure a user can act on: names the URL, the status and the server's words. */
export class HttpScorerError extends Error {
  /** HTTP status, when the server answered. */
  readonly status: number | undefined;
  readonly url: string;
  /** The message the server put in its error body, when it sent one. */
  readonly serverMessage: string | undefined;
  /** True when trying again later might succeed. */
  readonly isTransient: boolean;

  constructor(
    message: string,
    details: { url: string; status?: number; serverMessage?: string; isTransient?: boolean },
  ) {
    super(message);
    this.name = 'HttpScorerError';
    this.url = details.url;
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.isTransient = details.isTransient ?? false;
  }
}

/** How one logical request is attempted. */
export interface RequestPolicy {
  timeoutMs: number;
  /** Extra attempts after the first. */
  retries: number;
  /** First backoff delay; it doubles per attempt, plus up to the same again as jitter. */
  retryBaseMs: number;
  headers: Record<string, string>;
  signal?: AbortSignal;
}

const MAX_BACKOFF_MS = 30_000;
const MAX_MESSAGE_CHARS = 500;

/** GET or POST `url` and return the parsed JSON body, retrying transient failures. */
export async function requestJson(url: string, body: unknown, policy: RequestPolicy): Promise<unknown> {
  let lastError: HttpScorerError | undefined;
  for (let attempt = 0; attempt <= policy.retries; attempt++) {
    if (attempt > 0) await sleep(backoffMs(policy.retryBaseMs, attempt - 1), policy.signal);
    try {
      return await attemptOnce(url, body, policy);
    } catch (error) {
      if (!(error instanceof HttpScorerError) || !error.isTransient) throw error;
      lastError = error;
    }
  }
  const attempts = policy.retries + 1;
  const plural = attempts === 1 ? '' : 's';
  throw new HttpScorerError(`${lastError?.message ?? 'request failed'} (gave up after ${attempts} attempt${plural})`, {
    url,
    ...(lastError?.status !== undefined ? { status: lastError.status } : {}),
    ...(lastError?.serverMessage !== undefined ? { serverMessage: lastError.serverMessage } : {}),
    isTransient: true,
  });
}

async function attemptOnce(url: string, body: unknown, policy: RequestPolicy): Promise<unknown> {
  policy.signal?.throwIfAborted();
  const timeout = AbortSignal.timeout(policy.timeoutMs);
  const signal = policy.signal ? AbortSignal.any([policy.signal, timeout]) : timeout;
  let status: number;
  let text: string;
  try {
    const response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...policy.headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal,
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    policy.signal?.throwIfAborted();
    throw networkError(url, error, timeout.aborted ? policy.timeoutMs : undefined);
  }
  if (status >= 200 && status < 300) return parseBody(url, text);
  throw statusError(url, status, text);
}

function parseBody(url: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpScorerError(`${url} answered with something that is not JSON: ${clip(text)}`, { url });
  }
}

function statusError(url: string, status: number, text: string): HttpScorerError {
  const serverMessage = errorMessageOf(text);
  // 408 and 429 are the two 4xx answers that explicitly mean "not now" rather than "never".
  const isTransient = status >= 500 || status === 408 || status === 429;
  const message = `HTTP ${status} from ${url}: ${serverMessage || '(empty body)'}`;
  return new HttpScorerError(message, { url, status, serverMessage, isTransient });
}

function networkError(url: string, error: unknown, timedOutAfterMs: number | undefined): HttpScorerError {
  if (timedOutAfterMs !== undefined) {
    return new HttpScorerError(`no answer from ${url} within ${timedOutAfterMs} ms`, { url, isTransient: true });
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : '';
  const detail = code || (cause instanceof Error ? cause.message : String(cause));
  return new HttpScorerError(`cannot reach ${url} (${detail})`, { url, isTransient: true });
}

/**
 * vLLM writes `{"message": ...}` or `{"error": {"message": ...}}` depending on the version; its
 * request validation (FastAPI) writes `{"detail": ...}`.
 */
function errorMessageOf(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    const found = messageField(parsed) ?? messageField(field(parsed, 'error'));
    if (found !== undefined) return clip(found);
    const detail = field(parsed, 'detail');
    if (detail !== undefined) return clip(typeof detail === 'string' ? detail : JSON.stringify(detail));
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

function backoffMs(baseMs: number, retryIndex: number): number {
  const exponential = baseMs * 2 ** retryIndex;
  // Jitter spreads the retries of many parallel requests so they do not hit a recovering server together.
  return Math.min(MAX_BACKOFF_MS, exponential + Math.random() * exponential);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
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
