/**
 * The critic against a local OpenAI-compatible stand-in (loopback only): the request it sends, how
 * it reads answers, retries, several endpoints, timeouts, and what it never leaks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCriticScorer, type CriticScorerOptions } from '../../../../../src/scoring/scorers/critic/criticScorer';
import { CRITIC_PROMPT_VERSION } from '../../../../../src/scoring/scorers/critic/criticPrompt';
import { AFTER_FIRST_ERROR_NOTE } from '../../../../../src/scoring/scorers/critic/criticVerdict';
import { EndpointError } from '../../../../../src/scoring/scorers/endpoints/request';
import type { ScoreItem } from '../../../../../src/scoring/scorers/scorer';
import { paragraphsOf, startFakeChatServer, type ChatBody, type FakeChatOptions, type FakeChatServer } from './fakeChatServer';

const servers: FakeChatServer[] = [];
const MODEL = 'fake-critic-7b';
const SCORER = `critic:${CRITIC_PROMPT_VERSION}@${MODEL}`;

async function serve(options: FakeChatOptions = {}): Promise<FakeChatServer> {
  const server = await startFakeChatServer(options);
  servers.push(server);
  return server;
}

function critic(urls: string[], options: Partial<CriticScorerOptions> = {}) {
  return createCriticScorer({ urls, retryBaseMs: 1, ...options });
}

const flawed: ScoreItem = {
  id: 0,
  prompt: 'A box holds 12 pencils. How many pencils are in 3 boxes?',
  steps: ['Each box holds 12 pencils.', 'Three boxes hold 3 × 12 = 38 pencils.', 'So there are 38 pencils.', 'The answer is \\boxed{38}.'],
};
const sound: ScoreItem = { id: 1, prompt: 'What is 2 + 3?', steps: ['2 + 3 = 5.', 'The answer is \\boxed{5}.'] };

function items(n: number): ScoreItem[] {
  return Array.from({ length: n }, (_, i) => ({ id: i, prompt: `What is ${i} + 1?`, steps: [`${i} + 1 = ${i + 1}.`, `The answer is ${i + 1}.`] }));
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('the critic scores steps from the index of the earliest wrong paragraph', () => {
  it('posts the chat-completions request and scores before 1, flagged 0 with its reason, after not judged', async () => {
    const server = await serve();
    const scorer = critic([server.url]);
    const [result] = await scorer.score([flawed]);
    expect(result).toEqual({
      kind: 'scored',
      scores: [1, 0, null, null],
      notes: [null, 'flagged by the critic: 3 × 12 is 36, not 38.', AFTER_FIRST_ERROR_NOTE, AFTER_FIRST_ERROR_NOTE],
      scorer: SCORER,
    });
    const body = server.chats()[0]?.body as ChatBody;
    expect(body).toMatchObject({ model: MODEL, temperature: 0, max_tokens: 4096 });
    expect(body.messages).toHaveLength(1);
    expect(body.messages?.[0]?.role).toBe('user');
    expect(paragraphsOf(body.messages?.[0]?.content ?? '')).toEqual(flawed.steps);
    expect(scorer.info).toMatchObject({ kind: 'critic', model: MODEL, profile: CRITIC_PROMPT_VERSION, label: `critic (${MODEL})` });
    await scorer.dispose();
  });

  it('scores every step 1 when the critic answers −1', async () => {
    const server = await serve();
    const [result] = await critic([server.url]).score([sound]);
    expect(result).toEqual({ kind: 'scored', scores: [1, 1], scorer: SCORER });
  });

  it('ignores reasoning in <think> blocks and in reasoning_content, even when they hold a box', async () => {
    for (const style of ['think', 'reasoning_content'] as const) {
      const server = await serve({ style });
      const [result] = await critic([server.url]).score([flawed]);
      expect(result, style).toMatchObject({ kind: 'scored', scores: [1, 0, null, null] });
    }
  });

  it('asks once more when the answer has no usable index, and then scores', async () => {
    const server = await serve({ onChat: (call) => (call === 1 ? { content: 'Paragraph 1 looks wrong to me.' } : undefined) });
    const [result] = await critic([server.url]).score([flawed]);
    expect(result).toMatchObject({ kind: 'scored', scores: [1, 0, null, null] });
    expect(server.chats()).toHaveLength(2);
  });

  it('leaves the rollout unscored with the reason after two unusable answers', async () => {
    const server = await serve({ onChat: () => ({ content: 'Wait, let me think about paragraph', finishReason: 'length' }) });
    const [result] = await critic([server.url], { maxTokens: 512 }).score([flawed]);
    expect(result).toEqual({
      kind: 'unscored',
      reason: "the critic's answer had no usable index, twice: the answer has no \\boxed{} index (the answer stopped at max_tokens = 512)",
      scorer: SCORER,
    });
    expect(server.chats()).toHaveLength(2);
  });

  it('treats an index out of range as unusable', async () => {
    const server = await serve({ onChat: () => ({ content: 'Error: everything.\n\\boxed{9}' }) });
    const [result] = await critic([server.url]).score([sound]);
    expect(result).toMatchObject({ kind: 'unscored', reason: expect.stringContaining('\\boxed{9}, but the paragraphs are numbered 0–1') });
  });

  it('sends nothing for a rollout without steps', async () => {
    const server = await serve();
    const [result] = await critic([server.url]).score([{ id: 0, prompt: 'p', steps: [] }]);
    expect(result).toEqual({ kind: 'scored', scores: [], scorer: SCORER });
    expect(server.chats()).toHaveLength(0);
  });

  it('lowers max_tokens to fit the context the server reports, and skips a rollout that cannot fit', async () => {
    const server = await serve({ maxModelLen: 2048 });
    const scorer = critic([server.url], { maxTokens: 8192 });
    await scorer.score([flawed]);
    const sent = (server.chats()[0]?.body as ChatBody).max_tokens ?? 0;
    expect(sent).toBeGreaterThan(1024);
    expect(sent).toBeLessThan(2048);
    const huge = { ...flawed, steps: ['x'.repeat(10_000)] };
    expect((await scorer.score([huge]))[0]).toMatchObject({ kind: 'unscored', reason: expect.stringMatching(/^unscored \(context\)/) });
    expect(server.chats()).toHaveLength(1);
  });

  it("turns the server's context-length refusal into an unscored (context) rollout", async () => {
    const message = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.";
    const server = await serve({ onChat: () => ({ status: 400, body: { error: { message, type: 'BadRequestError', code: 400 } } }) });
    const [result] = await critic([server.url]).score([flawed]);
    expect(result).toMatchObject({ kind: 'unscored', reason: `unscored (context): ${message}` });
  });

  it('counts the tokens the server reports', async () => {
    const server = await serve();
    const scorer = critic([server.url]);
    await scorer.score([flawed, sound]);
    const usage = scorer.usage();
    expect(usage.requests).toBe(2);
    expect(usage.promptTokens).toBeGreaterThan(100);
    expect(usage.completionTokens).toBeGreaterThan(5);
  });
});

describe('transport', () => {
  it('waits as long as a 429 asks (Retry-After) and then succeeds', async () => {
    const server = await serve({ onChat: (call) => (call === 1 ? { status: 429, body: { error: { message: 'rate limited' } }, headers: { 'retry-after': '1' } } : undefined) });
    const started = Date.now();
    const [result] = await critic([server.url]).score([flawed]);
    expect(result?.kind).toBe('scored');
    expect(server.chats()).toHaveLength(2);
    // A lower bound only: the retry came no sooner than the server asked.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('gives up on a hanging endpoint at its timeout, naming it', async () => {
    const server = await serve({ onChat: () => ({ hang: true }) });
    const failure = critic([server.url], { timeoutMs: 200, retries: 1 }).score([flawed]);
    await expect(failure).rejects.toThrow(/no answer from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions within 200 ms: giving up at the 200 ms limit on one request \(all its attempts and waits\), after 1 attempt/);
  });

  it('moves work off a hanging endpoint to the one that answers', async () => {
    const hanging = await serve({ onChat: () => ({ hang: true }) });
    const good = await serve();
    const scorer = critic([hanging.url, good.url], { timeoutMs: 300, concurrency: 2 });
    const results = await scorer.score(items(6));
    expect(results.every((r) => r.kind === 'scored')).toBe(true);
    const [first, second] = scorer.endpointStatus();
    expect(first).toMatchObject({ url: hanging.url, state: 'set-aside', done: 0, lastError: expect.stringContaining('no answer from') });
    expect(second).toMatchObject({ url: good.url, state: 'ready', done: 6 });
  });

  it('spreads requests over two endpoints and sets aside the one that fails while the other carries on', async () => {
    const failing = await serve({ onChat: () => ({ status: 503, body: { error: { message: 'overloaded' } } }) });
    const good = await serve();
    const scorer = critic([failing.url, good.url], { concurrency: 2, retryBaseMs: 200 });
    const results = await scorer.score(items(12));
    expect(results.every((r) => r.kind === 'scored')).toBe(true);
    // Each failure sets the endpoint aside (200 ms, then 400 …): it gets few of the twelve.
    expect(failing.chats().length).toBeLessThanOrEqual(4);
    expect(good.chats().length).toBe(12);
    const [bad] = scorer.endpointStatus();
    expect(bad).toMatchObject({ state: 'set-aside', done: 0, lastError: expect.stringContaining('HTTP 503') });
    expect(bad?.failures).toBe(failing.chats().length);
  });

  it('sends to the endpoint with the fewest requests in flight, never more than the limit on each', async () => {
    const a = await serve({ onChat: () => ({ delayMs: 60 }) });
    const b = await serve({ onChat: () => ({ delayMs: 60 }) });
    await critic([a.url, b.url], { concurrency: 2 }).score(items(16));
    expect(a.chats().length).toBe(8);
    expect(b.chats().length).toBe(8);
    expect(a.maxInFlight).toBeLessThanOrEqual(2);
    expect(b.maxInFlight).toBeLessThanOrEqual(2);
  });

  it('stops at once when cancelled, even while the endpoint hangs', async () => {
    const server = await serve({ onChat: () => ({ hang: true }) });
    const controller = new AbortController();
    const scoring = critic([server.url]).score(items(3), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 100);
    const started = Date.now();
    await expect(scoring).rejects.toThrow('cancelled by the user');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('calls an answer of another shape a configuration error', async () => {
    const server = await serve({ onChat: () => ({ body: { object: 'list', data: [] } }) });
    const failure = critic([server.url]).score([flawed]);
    await expect(failure).rejects.toThrow(/configuration error: .* not as an OpenAI chat-completions server does/);
    await expect(failure).rejects.toBeInstanceOf(EndpointError);
  });

  it('says which model names a server does serve when the configured one is not among them', async () => {
    const server = await serve();
    await expect(critic([server.url], { modelName: 'gpt-nope' }).ready()).rejects.toThrow(`does not serve "gpt-nope" (it serves ${MODEL})`);
  });

  it('refuses an answer larger than the cap instead of reading it', async () => {
    const server = await serve({ onChat: () => ({ content: 'x'.repeat(200_000) }) });
    await expect(critic([server.url], { maxResponseBytes: 50_000 }).score([flawed])).rejects.toThrow(/more than 50000 bytes/);
  });

  it('sends the API key as a bearer token and never repeats it in a message', async () => {
    const key = 'sk-test-4f9a8b7c6d5e';
    const server = await serve({ onChat: () => ({ status: 401, body: { error: { message: `Incorrect API key provided: ${key}` } } }) });
    const failure = critic([server.url], { apiKey: key }).score([flawed]);
    await expect(failure).rejects.toThrow('Incorrect API key provided: [redacted]');
    await failure.catch((error: Error) => expect(`${error.message}${error.stack ?? ''}`).not.toContain(key));
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${key}`)).toBe(true);
  });
});
