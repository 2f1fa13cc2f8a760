/**
 * `score` and the endpoints against servers and model folders that misbehave, with local stand-ins
 * on 127.0.0.1. Before: a connection dropped mid-body with 8 requests in flight stalled for 30 s
 * (eight failures at once pushed the backoff to its cap); a 307 to another origin sent the rollout
 * there; a 1 MB model id went into every output line (3.6 KB → 8.4 MB); a 2M-number pair made an
 * 8 MB message and a 1M-deep one a stack overflow without the URL; 200,000 duplicate
 * `step_scores` keys took minutes; Ctrl-C left a temporary file; lines "copied unchanged" lost
 * their invalid bytes and CRLF; a `tokenizer.json` with a catastrophic pattern hung.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { EndpointPool } from '../../../src/scoring/scorers/endpoints/endpointPool';
import { createOnnxScorer } from '../../../src/scoring/scorers/onnx/onnxScorer';
import { startFakeServer, type FakeServer } from '../scoring/scorers/http/fakePoolingServer';

const ROOT = join(__dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-servers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string; seconds: number }> {
  let out = '';
  let err = '';
  const started = performance.now();
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: dir });
  return { code, out, err, seconds: (performance.now() - started) / 1000 };
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A raw server on 127.0.0.1: `/v1/models` answers `modelId`, everything else goes to `handle`. */
async function rawServer(handle: Handler, modelId = 'prm'): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push(`${req.method} ${req.url} ${body.length}`);
      if (req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: [{ id: modelId, root: 'prm', max_model_len: 4096 }] }));
      } else handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, hits, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

/** The pairs a PRM answers for the `<extra_0>` separators of a text input. */
function pairsFor(body: string): number[][] {
  const n = String((JSON.parse(body) as { input: string }).input).split('<extra_0>').length - 1;
  return Array.from({ length: n }, () => [0.25, 0.75]);
}

function answer(res: ServerResponse, payload: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(payload);
}

const ROLLOUT = (i: number): string => JSON.stringify({ prompt: `p${i}`, response: `step one ${i}\n\nstep two` });

describe('endpoints', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c()));
  });

  it('8 requests whose connection drops mid-body are 8 failures of one burst: retried within seconds (was a 30 s stall)', async () => {
    let calls = 0;
    const server = await rawServer((_req, res, body) => {
      if (++calls <= 8) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"data": [{"data": [[0.3,');
        setTimeout(() => res.destroy(), 100);
        return;
      }
      answer(res, JSON.stringify({ data: [{ data: pairsFor(body) }] }));
    });
    closers.push(server.close);
    const pool = new EndpointPool({ bases: [server.url], concurrency: 8, timeoutMs: 10_000, retries: 3, retryBaseMs: 500, headers: {}, secrets: [] });
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 8 }, () => pool.request('/pooling', { input: 'a<extra_0>' })));
    const seconds = (performance.now() - started) / 1000;
    pool.dispose();
    expect(answers).toHaveLength(8);
    expect(seconds).toBeLessThan(8);
    expect(pool.status()[0]).toMatchObject({ failures: 8, done: 8, state: 'ready' });
  });

  it('--timeout bounds each attempt', async () => {
    const server = await rawServer(() => undefined);
    closers.push(server.close);
    const input = join(dir, 'timeout.jsonl');
    writeFileSync(input, `${ROLLOUT(0)}\n`);
    const run = await cli(['score', input, '-o', join(dir, 'timeout.out.jsonl'), '--url', server.url, '--no-cache', '--timeout', '0.3']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/no answer from http:\/\/127\.0\.0\.1:\d+\/pooling within 300 ms/);
    expect(run.seconds).toBeLessThan(20);
    expect((await cli(['score', input, '-o', join(dir, 'x.jsonl'), '--url', server.url, '--timeout', 'soon'])).err).toMatch(/--timeout expects seconds/);
  });

  it('a redirect to another origin is refused; the rollout is never sent there', async () => {
    const other = await rawServer((_req, res) => answer(res, '{}'));
    const server = await rawServer((_req, res) => {
      res.writeHead(307, { location: `${other.url}/pooling` });
      res.end();
    });
    closers.push(server.close, other.close);
    const input = join(dir, 'redirect.jsonl');
    writeFileSync(input, `${ROLLOUT(0)}\n`);
    const run = await cli(['score', input, '-o', join(dir, 'redirect.out.jsonl'), '--url', server.url, '--no-cache']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/redirected the request to http:\/\/127\.0\.0\.1:\d+\/pooling, another server: refused/);
    expect(other.hits).toEqual([]);
  });

  it('a 1 MB model id is capped where it is shown and stored; the requests still name it whole', async () => {
    const id = 'm'.repeat(1 << 20);
    let named = 0;
    const server = await rawServer((_req, res, body) => {
      if ((JSON.parse(body) as { model: string }).model === id) named++;
      answer(res, JSON.stringify({ data: [{ data: pairsFor(body) }] }));
    }, id);
    closers.push(server.close);
    const input = join(dir, 'bigid.jsonl');
    writeFileSync(input, [0, 1, 2].map(ROLLOUT).join('\n') + '\n');
    const out = join(dir, 'bigid.out.jsonl');
    const run = await cli(['score', input, '-o', out, '--url', server.url, '--no-cache']);
    expect(run.code).toBe(0);
    expect(named).toBe(3);
    expect(readFileSync(out).length).toBeLessThan(3000);
    const meta = (JSON.parse(readFileSync(out, 'utf8').split('\n')[0]!) as { step_scores_meta: { model: string } }).step_scores_meta;
    expect(meta.model).toMatch(/^m{200}… \(1 MB\)$/);
    expect(run.err.length).toBeLessThan(1000);
  });

  it.each([
    ['a pair of 2M numbers', (body: string) => JSON.stringify({ data: [{ data: [Array.from({ length: 2_000_000 }, () => 0.5), ...pairsFor(body).slice(1)] }] })],
    ['a pair nested 1M deep', () => `{"data": [{"data": [${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}]}]}`],
    ['a number 1e400', (body: string) => `{"data": [{"data": [${pairsFor(body).map(() => '[0.5, 1e400]').join(', ')}]}]}`],
  ])('%s: a short message naming the URL, no stack overflow', async (_, reply) => {
    const server = await rawServer((_req, res, body) => answer(res, reply(body)));
    closers.push(server.close);
    const input = join(dir, 'pairs.jsonl');
    writeFileSync(input, `${ROLLOUT(0)}\n`);
    const run = await cli(['score', input, '-o', join(dir, 'pairs.out.jsonl'), '--url', server.url, '--no-cache']);
    expect(run.code).toBe(2);
    expect(run.err.length).toBeLessThan(2000);
    expect(run.err).toMatch(new RegExp(`${server.url.replace(/[.:/]/g, '\\$&')}/pooling answered, but not as a PRM does: "data\\[0\\]\\.data\\[0\\]" is .*not a \\[p_neg, p_pos\\] pair`));
  });
});

describe('score writes what it does not change byte for byte', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer({ modelId: 'prm', onPooling: () => ({ delayMs: 0 }) });
  });
  afterAll(() => server.close());

  it('invalid UTF-8 and CRLF survive, on copied and on scored lines', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"prompt":"p","response":"a\\n\\nb"}\r\n'),
      Buffer.from('{"bad": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"} oops\r\n'),
      Buffer.from('{"prompt":"p","response":"x'), Buffer.from([0xc3]), Buffer.from('\\n\\ny"}\r\n'),
      Buffer.from('\r\n'),
    ]);
    const input = join(dir, 'bytes.jsonl');
    writeFileSync(input, bytes);
    const out = join(dir, 'bytes.out.jsonl');
    const run = await cli(['score', input, '-o', out, '--url', server.url, '--no-cache']);
    expect(run.code).toBe(1);
    const written = readFileSync(out);
    const lines = written.toString('latin1').split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toBe(Buffer.concat([Buffer.from('{"bad": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"} oops')]).toString('latin1'));
    expect(lines[2]!.startsWith(Buffer.concat([Buffer.from('{"prompt":"p","response":"x'), Buffer.from([0xc3])]).toString('latin1'))).toBe(true);
    expect(lines[2]).toMatch(/"step_scores":\[[\d.]+,[\d.]+\],"step_scores_meta":/);
    expect(lines[3]).toBe('');
  });

  it('200,000 duplicate step_scores keys: written once, in seconds', async () => {
    const input = join(dir, 'dupkeys.jsonl');
    writeFileSync(input, `{"prompt":"p","response":"a\\n\\nb",${'"step_scores":[0.1],'.repeat(200_000)}"score":1}\n`);
    const out = join(dir, 'dupkeys.out.jsonl');
    const run = await cli(['score', input, '-o', out, '--url', server.url, '--no-cache']);
    expect(run.code).toBe(0);
    expect(run.seconds).toBeLessThan(15);
    const text = readFileSync(out, 'utf8');
    expect(text.split('"step_scores":').length - 1).toBe(1);
    expect(text).toMatch(/^\{"prompt":"p","response":"a\\n\\nb","step_scores":\[[\d.]+,[\d.]+\],"score":1,"step_scores_meta":\{/);
  });

  it('a --field path no record has: exit 2, naming it, nothing written', async () => {
    const input = join(dir, 'nofield.jsonl');
    writeFileSync(input, `${ROLLOUT(0)}\n`);
    const out = join(dir, 'nofield.out.jsonl');
    const run = await cli(['score', input, '-o', out, '--url', server.url, '--no-cache', '--field', 'group=meta.uid']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/--field group=meta\.uid: no record of .*nofield\.jsonl has "meta\.uid"/);
    expect(existsSync(out)).toBe(false);
  });

  it('Ctrl-C while writing removes the temporary file and keeps the old output', async () => {
    const slow = await startFakeServer({ modelId: 'prm', onPooling: () => ({ delayMs: 5000 }) });
    try {
      const folder = join(dir, 'sigint');
      mkdirSync(folder);
      const input = join(folder, 'in.jsonl');
      writeFileSync(input, [0, 1].map(ROLLOUT).join('\n') + '\n');
      writeFileSync(join(folder, 'out.jsonl'), 'old output\n');
      if (!existsSync(join(ROOT, 'dist/cli.js'))) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT });
      const child = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), 'score', input, '-o', join(folder, 'out.jsonl'), '--url', slow.url, '--no-cache'], { stdio: 'ignore' });
      const deadline = Date.now() + 15_000;
      while (!readdirSync(folder).some((f) => f.endsWith('.tmp')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(readdirSync(folder).some((f) => f.endsWith('.tmp'))).toBe(true);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(readdirSync(folder).sort()).toEqual(['in.jsonl', 'out.jsonl']);
      expect(readFileSync(join(folder, 'out.jsonl'), 'utf8')).toBe('old output\n');
    } finally {
      await slow.close();
    }
  });
});

describe('a model folder whose tokenizer.json pattern backtracks without end', () => {
  it('is refused within its budget, saying why (loading hung)', async () => {
    const models = join(dir, 'models');
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-tiny-model.mjs'), models, '--only', 'tiny']);
    const folder = join(dir, 'evil-model');
    mkdirSync(folder);
    for (const name of readdirSync(join(models, 'tiny'))) copyFileSync(join(models, 'tiny', name), join(folder, name));
    const tokenizer = JSON.parse(readFileSync(join(folder, 'tokenizer.json'), 'utf8')) as { pre_tokenizer: { pretokenizers: { pattern: { Regex: string } }[] } };
    // Two ways to read every letter and space, then an anchor that fails: 2^n tries per text.
    tokenizer.pre_tokenizer.pretokenizers[0]!.pattern.Regex = '(?:\\p{L}|\\p{L}|\\s|\\s)+$';
    writeFileSync(join(folder, 'tokenizer.json'), JSON.stringify(tokenizer));
    const started = performance.now();
    await expect(createOnnxScorer({ modelDir: folder, tokenizerBudgetMs: 2000 })).rejects.toThrow(/took more than 2 s to load \(with one trial rollout\): a pre-tokenizer pattern in its tokenizer\.json backtracks without end/);
    expect((performance.now() - started) / 1000).toBeLessThan(20);
  });
});
