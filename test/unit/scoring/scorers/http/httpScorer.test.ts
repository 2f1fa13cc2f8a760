import { afterEach, describe, expect, it } from 'vitest';
import { createHttpScorer, type HttpScorerOptions } from '../../../../../src/scoring/scorers/http/httpScorer';
import { EndpointError } from '../../../../../src/scoring/scorers/endpoints/request';
import type { ScoreItem } from '../../../../../src/scoring/scorers/scorer';
import { fakeScore, fakeTokenScore, SEPARATOR_ID, startFakeServer, type FakeServer, type FakeServerOptions } from './fakePoolingServer';

const MODEL = 'Qwen/Qwen2.5-Math-PRM-7B';
const servers: FakeServer[] = [];

async function serve(options: FakeServerOptions = {}): Promise<FakeServer> {
  const server = await startFakeServer(options);
  servers.push(server);
  return server;
}

function scorerFor(server: FakeServer, options: Partial<HttpScorerOptions> = {}) {
  return createHttpScorer({ urls: [server.url], modelName: MODEL, retryBaseMs: 1, ...options });
}

function item(id: number, steps: string[]): ScoreItem {
  return { id, prompt: `What is ${id} + ${id}?`, steps };
}

function poolingRequests(server: FakeServer) {
  return server.requests.filter((r) => r.path === '/pooling');
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('http scorer against a /pooling server', () => {
  it('puts each p_pos on its own step and posts the documented request', async () => {
    const server = await serve();
    const scorer = scorerFor(server);
    const steps = ['First, add the ones.', 'So the sum is 4.', 'The answer is \\boxed{4}.'];
    const [result] = await scorer.score([item(2, steps)]);
    expect(result).toEqual({ kind: 'scored', scores: steps.map(fakeScore), scorer: `http:qwen-prm@${MODEL}` });
    const [request] = poolingRequests(server);
    expect(request?.body).toMatchObject({ model: MODEL, task: 'token_classify' });
    const input = (request?.body as { input: string }).input;
    expect(input).toContain('<|im_start|>user\nWhat is 2 + 2?<|im_end|>');
    expect(input).toContain('<|im_start|>assistant\nFirst, add the ones.<extra_0>So the sum is 4.<extra_0>');
    expect(scorer.info).toMatchObject({ kind: 'http', model: MODEL, profile: 'qwen-prm' });
  });

  it('asks /v1/models for the served model when none is given', async () => {
    const server = await serve({ modelId: 'served-prm' });
    const scorer = createHttpScorer({ urls: [`${server.url}/`] });
    const info = await scorer.ready();
    expect(info.model).toBe('served-prm');
    expect(info.label).toContain('served-prm');
    await scorer.score([item(1, ['a'])]);
    expect(server.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
    expect((poolingRequests(server)[0]?.body as { model: string }).model).toBe('served-prm');
  });

  it('retries a 5xx and then succeeds', async () => {
    const server = await serve({ onPooling: (call) => (call === 1 ? { status: 503, body: { message: 'warming up' } } : undefined) });
    const [result] = await scorerFor(server).score([item(1, ['one step'])]);
    expect(result).toEqual({ kind: 'scored', scores: [fakeScore('one step')], scorer: `http:qwen-prm@${MODEL}` });
    expect(poolingRequests(server)).toHaveLength(2);
  });

  it('gives up after the configured retries with the last error', async () => {
    const server = await serve({ onPooling: () => ({ status: 502, body: 'bad gateway' }) });
    const failure = scorerFor(server, { retries: 2 }).score([item(1, ['x'])]);
    await expect(failure).rejects.toThrow(/HTTP 502 .*gave up after 3 attempts/);
    expect(poolingRequests(server)).toHaveLength(3);
  });

  it('retries a request that fails fast, within the limit on its whole life', async () => {
    const server = await serve({ onPooling: (call) => (call === 1 ? { status: 503, body: { message: 'warming up' } } : undefined) });
    const [result] = await scorerFor(server, { timeoutMs: 2000 }).score([item(1, ['slow step'])]);
    expect(result?.kind).toBe('scored');
    expect(poolingRequests(server)).toHaveLength(2);
  });

  it('a request that hangs uses its whole limit once: it is not sent again past the limit', async () => {
    const server = await serve({ onPooling: (call) => (call === 1 ? { delayMs: 1500 } : undefined) });
    const started = performance.now();
    await expect(scorerFor(server, { timeoutMs: 150 }).score([item(1, ['slow step'])])).rejects.toThrow(/within 150 ms: giving up at the 150 ms limit on one request/);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(poolingRequests(server)).toHaveLength(1);
  });

  it('reports a 4xx with status, URL and the server message, without retrying', async () => {
    const body = { object: 'error', message: 'The model `nope` does not exist.', type: 'NotFoundError', code: 404 };
    const server = await serve({ onPooling: () => ({ status: 404, body }) });
    const failure = scorerFor(server).score([item(1, ['x'])]);
    await expect(failure).rejects.toThrow(EndpointError);
    await expect(failure).rejects.toThrow(`HTTP 404 from ${server.url}/pooling: The model \`nope\` does not exist.`);
    expect(poolingRequests(server)).toHaveLength(1);
  });

  it('reads the newer {"error": {"message"}} error body too', async () => {
    const server = await serve({ onPooling: () => ({ status: 401, body: { error: { message: 'Unauthorized', type: 'x' } } }) });
    await expect(scorerFor(server).score([item(1, ['x'])])).rejects.toThrow(/HTTP 401 .*: Unauthorized/);
  });

  it('stops the run with a configuration error when the pair count differs from the step count', async () => {
    const server = await serve({ onPooling: (call) => (call === 1 ? { pairs: [[0.5, 0.5]] } : undefined) });
    const scorer = scorerFor(server, { concurrency: 1 });
    const run = scorer.score([item(1, ['a', 'bb', 'ccc']), item(2, ['dd'])]);
    await expect(run).rejects.toThrow(new RegExp(`^configuration error: ${server.url}/pooling answered with 1 step score for 3 steps; the server must run a process reward model`));
    await expect(run).rejects.toMatchObject({ isConfiguration: true, isTransient: false });
    // Said once: the run stopped at the first wrong answer instead of scoring the rest.
    expect(poolingRequests(server)).toHaveLength(1);
  });

  it('marks a rollout whose text holds the separator unscored without a request', async () => {
    const server = await serve();
    const [result] = await scorerFor(server).score([item(1, ['ok', 'sneaky <extra_0> step'])]);
    expect(result).toMatchObject({ kind: 'unscored', reason: expect.stringContaining('step 2 contains the separator') });
    expect(poolingRequests(server)).toHaveLength(0);
  });

  it('turns a context-length refusal into an unscored (context) rollout', async () => {
    const message = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.";
    const server = await serve({ onPooling: () => ({ status: 400, body: { object: 'error', message, code: 400 } }) });
    const [result] = await scorerFor(server).score([item(1, ['very long'])]);
    expect(result).toMatchObject({ kind: 'unscored', reason: `unscored (context): ${message}` });
  });

  it('refuses logits where probabilities belong', async () => {
    const server = await serve({ onPooling: () => ({ pairs: [[-2.5, 3.1]] }) });
    await expect(scorerFor(server).score([item(1, ['x'])])).rejects.toThrow(/^configuration error: .*outside \[0, 1\]/);
  });

  it('never has more requests in flight than the concurrency limit', async () => {
    const server = await serve({ onPooling: () => ({ delayMs: 40 }) });
    const items = Array.from({ length: 12 }, (_, i) => item(i, [`step ${'x'.repeat(i)}`]));
    const progress: number[] = [];
    const results = await scorerFor(server, { concurrency: 3 }).score(items, { onProgress: (done) => progress.push(done) });
    expect(server.maxInFlight).toBe(3);
    expect(results.map((r) => (r.kind === 'scored' ? r.scores[0] : null))).toEqual(items.map((i) => fakeScore(i.steps[0] ?? '')));
    expect(progress).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('stops at once when the caller aborts', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    // Abort once both concurrent requests are in (not on a timer: under load they may arrive late).
    const server = await serve({
      onPooling: (call) => {
        if (call === 2) setTimeout(() => ((abortedAt = Date.now()), controller.abort()), 50);
        return { delayMs: 5000 };
      },
    });
    const items = Array.from({ length: 10 }, (_, i) => item(i, ['x']));
    const run = scorerFor(server, { concurrency: 2 }).score(items, { signal: controller.signal });
    await expect(run).rejects.toThrow(/abort/i);
    expect(Date.now() - abortedAt).toBeLessThan(2000);
    expect(poolingRequests(server)).toHaveLength(2);
  });

  it('sends the API key as a bearer token to every request, and none without one', async () => {
    const server = await serve();
    await scorerFor(server, { apiKey: 'default-secret' }).score([item(1, ['x'])]);
    await scorerFor(server).score([item(1, ['x'])]);
    expect(poolingRequests(server).map((r) => r.headers.authorization)).toEqual(['Bearer default-secret', undefined]);
    expect(server.requests.filter((r) => r.path === '/v1/models').map((r) => r.headers.authorization)).toEqual(['Bearer default-secret', undefined]);
  });

  it('waits as long as a 429 asks (Retry-After) before trying again', async () => {
    const server = await serve({ onPooling: (call) => (call === 1 ? { status: 429, body: { message: 'slow down' }, headers: { 'retry-after': '1' } } : undefined) });
    const started = Date.now();
    const [result] = await scorerFor(server).score([item(1, ['x'])]);
    expect(result?.kind).toBe('scored');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('spreads requests over several servers of the same model, and retires one that serves another', async () => {
    const a = await serve({ onPooling: () => ({ delayMs: 30 }) });
    const b = await serve({ onPooling: () => ({ delayMs: 30 }) });
    const other = await serve({ model: { root: '/models/another-prm', maxModelLen: 4096 } });
    const scorer = scorerFor(a, { urls: [a.url, b.url, other.url], concurrency: 2 });
    const items = Array.from({ length: 12 }, (_, i) => item(i, [`step ${i}`]));
    const results = await scorer.score(items);
    expect(results.map((r) => (r.kind === 'scored' ? r.scores[0] : null))).toEqual(items.map((i) => fakeScore(i.steps[0] ?? '')));
    expect([poolingRequests(a).length, poolingRequests(b).length, poolingRequests(other).length]).toEqual([6, 6, 0]);
    expect(scorer.endpointStatus()[2]).toMatchObject({ state: 'retired', lastError: expect.stringContaining('serves Qwen/Qwen2.5-Math-PRM-7B (root /models/another-prm') });
  });

  it('sends token ids when given a tokenizer and cuts long inputs at a step boundary', async () => {
    const server = await serve();
    // Three steps of 3 tokens, each followed by the separator: 12 tokens; only two steps fit in 9.
    const ids = [1, 2, 3, SEPARATOR_ID, 4, 5, 6, SEPARATOR_ID, 7, 8, 9, SEPARATOR_ID];
    const scorer = scorerFor(server, { encode: () => ids, maxTokens: 9 });
    const [result] = await scorer.score([item(1, ['a', 'b', 'c'])]);
    expect(result).toEqual({
      kind: 'scored',
      scores: [fakeTokenScore(0), fakeTokenScore(1), null],
      notes: [null, null, 'unscored (context)'],
      scorer: `http:qwen-prm@${MODEL}`,
    });
    expect((poolingRequests(server)[0]?.body as { input: number[] }).input).toEqual(ids.slice(0, 8));
  });

  it('rejects a token input whose separators do not match the steps', async () => {
    const server = await serve();
    const scorer = scorerFor(server, { encode: () => [1, SEPARATOR_ID] });
    const [result] = await scorer.score([item(1, ['a', 'b'])]);
    expect(result).toMatchObject({ kind: 'unscored', reason: 'the tokenized input has 1 separators (id 151651) for 2 steps' });
  });
});

describe('http scorer URL handling', () => {
  it('rejects URLs that are not http(s)', () => {
    expect(() => createHttpScorer({ urls: ['ftp://example.com'] })).toThrow(/not an http or https URL/);
    expect(() => createHttpScorer({ urls: ['localhost 8000'] })).toThrow(/is not a URL/);
    expect(() => createHttpScorer({ urls: ['http://me:sk-123@example.com'] })).toThrow(/not in the URL/);
  });

  it('says which URL cannot be reached', async () => {
    const server = await startFakeServer();
    const url = server.url;
    await server.close();
    const scorer = createHttpScorer({ urls: [url], modelName: MODEL, retries: 1, retryBaseMs: 1 });
    await expect(scorer.score([item(1, ['x'])])).rejects.toThrow(new RegExp(`cannot reach ${url}/v1/models \\(ECONNREFUSED\\).*2 attempts`));
  });

  it('refuses to score after dispose', async () => {
    const server = await serve();
    const scorer = scorerFor(server);
    await scorer.dispose();
    await scorer.dispose();
    await expect(scorer.score([item(1, ['x'])])).rejects.toThrow(/disposed/);
  });
});
