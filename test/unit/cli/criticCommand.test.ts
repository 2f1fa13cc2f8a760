/**
 * The command line with served models, against local stand-ins (loopback only): `eval` with a
 * critic over two endpoints on a ProcessBench-style file, `doctor` checking a critic, `score`
 * stopping loudly when a PRM server answers with the wrong pair count, and the API key never
 * printed.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { startFakeChatServer, type FakeChatServer } from '../scoring/scorers/critic/fakeChatServer';
import { startFakeServer, type FakeServer } from '../scoring/scorers/http/fakePoolingServer';

const ROOT = join(__dirname, '../../..');
const KEY = 'sk-cli-9d8c7b6a5f4e';
let dir: string;
const servers: (FakeServer | FakeChatServer)[] = [];

async function cli(argv: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: ROOT, env });
  return { code, out, err };
}

/** A ProcessBench-style file: labels are the index of the first wrong paragraph, −1 for none. */
const PROCESSBENCH = [
  { id: 'pb-0', problem: 'A box holds 12 pencils. How many pencils are in 3 boxes?', steps: ['Each box holds 12.', 'So 3 × 12 = 38 pencils.', 'The answer is 38.'], final_answer_correct: false, label: 1 },
  { id: 'pb-1', problem: 'What is 2 + 3?', steps: ['2 + 3 = 5.', 'The answer is 5.'], final_answer_correct: true, label: -1 },
  { id: 'pb-2', problem: 'What is 4 × 5 + 1?', steps: ['First 4 × 5 = 20.', 'Then 20 + 1 = 21.', 'Check: 21 - 1 = 19.'], final_answer_correct: true, label: 2 },
  { id: 'pb-3', problem: 'Is 7 even?', steps: ['Seven divides by two evenly.', 'So 7 is even.'], final_answer_correct: false, label: 0 },
  { id: 'pb-4', problem: 'UNREADABLE: What is 1 + 1?', steps: ['1 + 1 = 2.'], final_answer_correct: true, label: -1 },
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'prof-lens-critic-cli-'));
  writeFileSync(join(dir, 'gsm8k.json'), JSON.stringify(PROCESSBENCH, null, 2));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function chatServer(): Promise<FakeChatServer> {
  // The stand-in never gives a usable answer about the problem marked UNREADABLE.
  const server = await startFakeChatServer({ onChat: (_call, body) => (body.messages?.[0]?.content.includes('UNREADABLE') ? { content: 'Hmm.' } : undefined) });
  servers.push(server);
  return server;
}

describe('prof-lens eval --scorer critic', () => {
  it('measures first-error accuracy over two endpoints, counting an unreadable answer as a miss', async () => {
    const [a, b] = [await chatServer(), await chatServer()];
    const { code, out, err } = await cli(['eval', join(dir, 'gsm8k.json'), '--scorer', 'critic', '--url', a.url, '--url', b.url, '--no-cache', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(out) as { scorer: string; items: number; unscored: number; report: { subsets: { errorItems: number; errorHits: number; correctItems: number; correctHits: number; f1: number }[] } };
    expect(result).toMatchObject({ scorer: 'critic', items: 5, unscored: 1 });
    // pb-0 and pb-2 found, pb-3 (a reasoning error, no arithmetic) missed; pb-1 passed, pb-4 unreadable.
    expect(result.report.subsets[0]).toMatchObject({ errorItems: 3, errorHits: 2, correctItems: 2, correctHits: 1 });
    expect(result.report.subsets[0]?.f1).toBeCloseTo((2 * (2 / 3) * 0.5) / (2 / 3 + 0.5), 6);
    expect(a.chats().length).toBeGreaterThan(0);
    expect(b.chats().length).toBeGreaterThan(0);
    expect(err).toMatch(/scoring with critic \(fake-critic-7b\) over 2 endpoints/);
    expect(err).toMatch(new RegExp(`endpoint ${a.url} — ready · \\d+ done`));
  });

  it('prints the figures with the published critics for scale, and names what was not scored', async () => {
    const server = await chatServer();
    const { code, out } = await cli(['eval', join(dir, 'gsm8k.json'), '--scorer', 'critic', '--url', server.url, '--no-cache']);
    expect(code).toBe(0);
    expect(out).toContain('first-error evaluation (scorer: critic');
    expect(out).toContain('critics QwQ-32B-Preview 71.5%');
    expect(out).toContain('1 solution(s) not scored, counted as misses:');
    expect(out).toContain("the critic's answer had no usable index, twice");
  });

  it('needs --url', async () => {
    const { code, err } = await cli(['eval', join(dir, 'gsm8k.json'), '--scorer', 'critic']);
    expect(code).toBe(2);
    expect(err).toContain('--scorer critic needs --url <base>');
  });
});

describe('prof-lens doctor --scorer critic', () => {
  it('lists the model and the judged example for each endpoint; exit 1 when one is down', async () => {
    const server = await chatServer();
    const ok = await cli(['doctor', '--scorer', 'critic', '--url', server.url]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('Critic endpoint');
    expect(ok.out).not.toContain('vLLM endpoint');
    expect(ok.out).toMatch(/✓ judged example\s+found the planted error in paragraph 1 in \d+ ms/);
    const down = await cli(['doctor', '--scorer', 'critic', '--url', server.url, '--url', 'http://127.0.0.1:9']);
    expect(down.code).toBe(1);
    expect(down.out).toMatch(/✗ GET \/v1\/models\s+cannot reach http:\/\/127\.0\.0\.1:9\/v1\/models/);
  });
});

describe('prof-lens score against a PRM server that answers wrongly', () => {
  it('stops with one configuration error, exit 2, and writes no file of nulls', async () => {
    const server = await startFakeServer({ onPooling: (_call, body) => (JSON.stringify(body).includes('pencils') ? undefined : { pairs: [[0.4, 0.6]] }) });
    servers.push(server);
    const input = join(dir, 'rollouts.jsonl');
    const rows = Array.from({ length: 20 }, (_, i) => ({ prompt: `Q${i}`, response: `Step one.\n\nStep two ${i}.\n\nSo \\boxed{${i}}.`, answer: String(i) }));
    writeFileSync(input, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const output = join(dir, 'scored.jsonl');
    const { code, err } = await cli(['score', input, '-o', output, '--url', server.url, '--no-cache']);
    expect(code).toBe(2);
    const errors = err.split('\n').filter((l) => l.startsWith('prof-lens score:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^prof-lens score: configuration error: ${server.url}/pooling answered with 1 step score for 3 steps; `));
    expect(err).not.toMatch(/\n\s+at /);
    expect(existsSync(output)).toBe(false);
  });
});

describe('the API key on the command line', () => {
  it('is sent as a bearer token and never printed, even when the server echoes it', async () => {
    const server = await startFakeChatServer({ onChat: () => ({ status: 403, body: { error: { message: `key ${KEY} may not use this model` } } }) });
    servers.push(server);
    const { code, out, err } = await cli(['eval', join(dir, 'gsm8k.json'), '--scorer', 'critic', '--url', server.url, '--no-cache'], { PROF_LENS_API_KEY: KEY });
    expect(code).toBe(2);
    expect(err).toContain('key [redacted] may not use this model');
    expect(out + err).not.toContain(KEY);
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('warns before it would go over plain http to another machine', async () => {
    const { code, err } = await cli(['eval', join(dir, 'gsm8k.json'), '--scorer', 'critic', '--url', 'http://critic.invalid:8000', '--no-cache'], { PROF_LENS_API_KEY: KEY });
    expect(err).toContain('prof-lens: warning: the API key will be sent unencrypted (plain http) to critic.invalid:8000');
    expect(code).toBe(2);
    expect(err).toContain('cannot reach http://critic.invalid:8000/v1/models');
    expect(err).not.toContain(KEY);
  });
});
