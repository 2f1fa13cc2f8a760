/**
 * Endpoint URLs as a user gives them: checked once, with a readable error for anything that is not
 * an http(s) base URL, and the one warning that matters about them: an API key about to travel in
 * clear text to another machine.
 */
import { isIP } from 'node:net';
import { EndpointError } from './request';

/** `http://host:port/path` without a trailing slash; throws a readable error for anything else. */
export function parseBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new EndpointError(`"${url}" is not a URL; expected something like http://127.0.0.1:8000`, { url, isConfiguration: true });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new EndpointError(`"${url}" is not an http or https URL; expected something like http://127.0.0.1:8000`, { url, isConfiguration: true });
  }
  if (parsed.username || parsed.password) {
    throw new EndpointError(`"${parsed.host}": put the API key in PROF_LENS_API_KEY (or the editor's key store), not in the URL`, { url: parsed.origin, isConfiguration: true });
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

/** Every URL parsed, duplicates removed, order kept; at least one. */
export function parseBaseUrls(urls: readonly string[]): string[] {
  const bases = [...new Set(urls.map(parseBaseUrl))];
  if (bases.length === 0) throw new EndpointError('no endpoint URL was given', { url: '', isConfiguration: true });
  return bases;
}

/** True for names and addresses that never leave this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1';
}

/** The host part of a URL, for messages (`10.0.0.5:8000`). */
export function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : url;
}

/** The hosts a key would reach in clear text: plain http to anything but this machine. */
export function plainHttpHosts(urls: readonly string[]): string[] {
  return urls.filter((u) => URL.canParse(u) && new URL(u).protocol === 'http:' && !isLoopbackHost(new URL(u).hostname)).map(hostOf);
}

/** A warning when an API key would be sent unencrypted to another machine; null otherwise. */
export function plainHttpKeyWarning(urls: readonly string[], hasKey: boolean): string | null {
  const hosts = plainHttpHosts(urls);
  if (!hasKey || hosts.length === 0) return null;
  return `the API key will be sent unencrypted (plain http) to ${hosts.join(', ')}; use https, or reach the server through an SSH tunnel on 127.0.0.1`;
}
