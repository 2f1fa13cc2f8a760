/**
 * The shared transport: Retry-After in both of its forms, endpoints that come back (checked before
 * use), the status each endpoint reports, and the plain-http warning.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { describeEndpoint } from '../../../../../src/protocol/endpoints';
import { isLoopbackHost, parseBaseUrl, plainHttpKeyWarning } from '../../../../../src/scoring/scorers/endpoints/endpointUrls';
import { MAX_RETRY_AFTER_MS, parseRetryAfter, requestOnce } from '../../../../../src/scoring/scorers/endpoints/request';
import { ServedModel } from '../../../../../src/scoring/scorers/endpoints/servedModel';
import { startFakeServer, type FakeServer } from '../http/fakePoolingServer';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(options: Parameters<typeof startFakeServer>[0] = {}): Promise<FakeServer> {
  const server = await startFakeServer(options);
  servers.push(server);
  return server;
}

/** A free loopback port with nothing listening on it (yet). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('fails at once when a server asks for a longer pause than PROF Lens waits (a daily quota)', async () => {
    const server: Server = createServer((_req, res) => res.writeHead(429, { 'retry-after': String(MAX_RETRY_AFTER_MS / 1000 + 60) }).end('{"error":{"message":"quota"}}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    const failure = requestOnce(url, {}, { timeoutMs: 1000, headers: {} });
    await expect(failure).rejects.toThrow(/HTTP 429 .*quota \(the server asks to wait 360 s, longer than the 300 s PROF Lens waits\)/);
    await expect(failure).rejects.toMatchObject({ isTransient: false });
  });
});

describe('endpoints that come and go', () => {
  it('sets aside an endpoint that is down at first, checks it serves the same model when it is back, then uses it', async () => {
    const up = await fake();
    const port = await freePort();
    const served = new ServedModel({ urls: [up.url, `http://127.0.0.1:${port}`], retryBaseMs: 1, concurrency: 1 });
    await served.ready();
    expect(served.status()[1]).toMatchObject({ state: 'set-aside', lastError: expect.stringContaining('ECONNREFUSED') });
    // A server of the same model comes up on the port that was down.
    const back = createServer((req, res) => {
      const send = (body: unknown): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === '/v1/models') send({ data: [{ id: 'Qwen/Qwen2.5-Math-PRM-7B', root: 'Qwen/Qwen2.5-Math-PRM-7B', max_model_len: 4096 }] });
      else send({ data: [{ data: [[0.5, 0.5]] }] });
    });
    await new Promise<void>((resolve) => back.listen(port, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise((resolve) => { back.closeAllConnections(); back.close(() => resolve()); }) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answers = await Promise.all(Array.from({ length: 6 }, () => served.post('/pooling', { input: 'x' })));
    expect(answers.some((a) => a.url.startsWith(`http://127.0.0.1:${port}`))).toBe(true);
    expect(served.status()[1]).toMatchObject({ state: 'ready' });
    served.dispose();
  });

  it('retires an endpoint that turns out to serve another model, and says so', async () => {
    const a = await fake({ model: { root: '/ckpt/a', maxModelLen: 4096 } });
    const b = await fake({ model: { root: '/ckpt/b', maxModelLen: 4096 } });
    const served = new ServedModel({ urls: [a.url, b.url] });
    await served.ready();
    const [first, second] = served.status();
    expect(first?.state).toBe('ready');
    expect(second).toMatchObject({ state: 'retired', lastError: `serves Qwen/Qwen2.5-Math-PRM-7B (root /ckpt/b, max_model_len 4096), not Qwen/Qwen2.5-Math-PRM-7B (root /ckpt/a, max_model_len 4096) like ${a.url}` });
    expect(describeEndpoint(second!)).toMatch(/ — not used: serves /);
    served.dispose();
  });

  it('fails with the reason when no endpoint answers', async () => {
    const served = new ServedModel({ urls: [`http://127.0.0.1:${await freePort()}`], retryBaseMs: 1 });
    await expect(served.ready()).rejects.toThrow(/cannot reach .*ECONNREFUSED/);
  });
});

describe('endpoint URLs and the API key', () => {
  it('knows which hosts never leave this machine', () => {
    for (const host of ['localhost', 'api.localhost', '127.0.0.1', '127.4.5.6', '[::1]', '::1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['10.0.0.5', '192.168.1.2', 'example.com', '128.0.0.1', 'localhost.example.com']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('warns only when a key would travel over plain http to another machine', () => {
    expect(plainHttpKeyWarning(['http://10.0.0.5:8000', 'https://a.example', 'http://127.0.0.1:1'], true)).toBe(
      'the API key will be sent unencrypted (plain http) to 10.0.0.5:8000; use https, or reach the server through an SSH tunnel on 127.0.0.1',
    );
    expect(plainHttpKeyWarning(['http://10.0.0.5:8000'], false)).toBeNull();
    expect(plainHttpKeyWarning(['https://10.0.0.5:8000', 'http://localhost:8000'], true)).toBeNull();
  });

  it('keeps a path prefix, drops trailing slashes, refuses credentials in the URL', () => {
    expect(parseBaseUrl('https://gateway.example/team/llm/')).toBe('https://gateway.example/team/llm');
    expect(() => parseBaseUrl('https://user:sk-1@gateway.example')).toThrow('put the API key in PROF_LENS_API_KEY');
  });
});
