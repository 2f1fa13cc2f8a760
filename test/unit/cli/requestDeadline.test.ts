/**
 * A request's whole life is bounded by `--timeout`: every attempt and every wait between them.
 * Before: a server answering 503 with `Retry-After: 299` kept `score --timeout 5` silent for about
 * 15 minutes (three waits of 299 s); `--timeout` bounded one attempt only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { requestJson } from '../../../src/scoring/scorers/endpoints/request';
import { EndpointPool } from '../../../src/scoring/scorers/endpoints/endpointPool';

const dir = mkdtempSync(join(tmpdir(), 'prof-lens-deadline-'));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A server on 127.0.0.1: `/v1/models` answers, `/pooling` is always busy for `retryAfter` seconds. */
async function busyServer(retryAfter: string): Promise<{ url: string; poolingHits: () => number }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 'prm', root: 'prm', max_model_len: 4096 }] }));
        return;
      }
      hits++;
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': retryAfter }).end('{"message":"overloaded"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, poolingHits: () => hits };
}

describe('a request is bounded as a whole', () => {
  it('score --timeout 5 against 503 + Retry-After: 299 stops within seconds and says why', async () => {
    const server = await busyServer('299');
    const input = join(dir, 'busy.jsonl');
    writeFileSync(input, [0, 1, 2].map((i) => JSON.stringify({ prompt: `p${i}`, response: `step one ${i}\n\nstep two` })).join('\n') + '\n');
    let err = '';
    const started = performance.now();
    const code = await runCli(['score', input, '-o', join(dir, 'busy.out.jsonl'), '--url', server.url, '--no-cache', '--timeout', '5'], { stdout: () => undefined, stderr: (t) => (err += t), isStderrTty: false, cwd: dir });
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeLessThan(15);
    expect(code).toBe(2);
    expect(err).toMatch(/HTTP 503 from http:\/\/127\.0\.0\.1:\d+\/pooling: overloaded: the server asks to wait 299 s; giving up at the 5 s limit on one request/);
    expect(err).not.toMatch(/\n\s+at .*:\d+:\d+/);
    // Nothing was written for rollouts that were never scored.
    expect(() => readFileSync(join(dir, 'busy.out.jsonl'))).toThrow();
    // One attempt per endpoint pause: the server was not hammered while it asked to be left alone.
    expect(server.poolingHits()).toBeLessThanOrEqual(3);
  });

  it('a short Retry-After inside the limit is waited for; the total never passes the limit', async () => {
    const server = await busyServer('1');
    const pool = new EndpointPool({ bases: [server.url], concurrency: 2, timeoutMs: 2500, retries: 5, retryBaseMs: 10, headers: {}, secrets: [] });
    const started = performance.now();
    await expect(pool.request('/pooling', { input: 'x' })).rejects.toThrow(/the server asks to wait 1 s; giving up at the 2.5 s limit on one request \(all its attempts and waits\), after 3 attempts/);
    pool.dispose();
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeGreaterThan(1.9);
    expect(seconds).toBeLessThan(2.6);
    expect(server.poolingHits()).toBe(3);
  });

  it('the same holds for a single-URL request (the set-up check)', async () => {
    const server = await busyServer('299');
    const started = performance.now();
    await expect(requestJson(`${server.url}/pooling`, {}, { timeoutMs: 3000, retries: 3, retryBaseMs: 10, headers: {} })).rejects.toThrow(/the server asks to wait 299 s; giving up at the 3 s limit on one request/);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
