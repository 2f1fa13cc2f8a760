/**
 * What the editor, `doctor` and the CLI are told about each model server a scorer spreads its
 * requests over, and the one wording of it. JSON-plain: it travels from the analysis worker to the
 * host in progress messages and summaries.
 */
import { arrayOf, isNumber, isString, literal, outline, type Guard } from './guards';

/**
 * `ready`: takes requests; `set-aside`: its last request failed, it waits until `retryAt` and then
 * gets one request at a time until one succeeds; `retired`: not used again this session.
 */
export type EndpointState = 'ready' | 'set-aside' | 'retired';

/** One endpoint's state. */
export interface EndpointStatus {
  /** The base URL (never with credentials). */
  url: string;
  state: EndpointState;
  inFlight: number;
  /** Requests it answered. */
  done: number;
  /** Requests that failed on it (each was retried, here later or on another endpoint). */
  failures: number;
  /** When a set-aside endpoint is tried again (epoch ms). */
  retryAt?: number;
  /** Why it was set aside or retired. */
  lastError?: string;
}

/** Checks a list of endpoint states received from the worker. */
export const isEndpointStatusList: Guard<EndpointStatus[]> = arrayOf(outline<EndpointStatus>({
  url: isString,
  state: literal('ready', 'set-aside', 'retired'),
  inFlight: isNumber,
  done: isNumber,
  failures: isNumber,
}));

/** One line per endpoint: `http://a:8000 — ready · 12 done · 1 in flight`, or why it is not used. */
export function describeEndpoint(status: EndpointStatus, now: number = Date.now()): string {
  const counts = [`${status.done} done`, status.inFlight > 0 && `${status.inFlight} in flight`, status.failures > 0 && `${status.failures} failed`]
    .filter(Boolean).join(' · ');
  const why = status.lastError ? `: ${status.lastError}` : '';
  switch (status.state) {
    case 'ready':
      return `${status.url} — ready · ${counts}`;
    case 'set-aside': {
      const seconds = Math.ceil(((status.retryAt ?? now) - now) / 1000);
      const when = seconds > 0 ? `tried again in ${seconds} s` : 'being tried again';
      return `${status.url} — set aside, ${when} · ${counts}${why}`;
    }
    case 'retired':
      return `${status.url} — not used${why}`;
  }
}

/** A short summary for a status bar: `2/3 endpoints ready`. */
export function endpointsShort(statuses: readonly EndpointStatus[]): string {
  const ready = statuses.filter((s) => s.state === 'ready').length;
  return `${ready}/${statuses.length} endpoints ready`;
}
