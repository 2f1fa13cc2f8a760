import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { startFakeServer, type FakeServer } from '../scoring/scorers/http/fakePoolingServer';

// `score` over a file that is rewritten while it runs: refused with exit 2 and nothing written,
// as `filter` refuses it, instead of an output that mixes the old file's lines with the new one's.
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-score-changing-'));
let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function scoreWhile(name: string, lineCount: number, change: (input: string) => void): Promise<{ code: number; err: string; out: string; ms: number }> {
  const lines = Array.from({ length: lineCount }, (_, i) => JSON.stringify({ prompt: `p${i >> 2}`, response: `step one ${i}\n\nstep two`, score: i % 2 })).join('\n') + '\n';
  const input = join(dir, name);
  writeFileSync(input, lines);
  // A whole second, so that a change can put the very same time back.
  utimesSync(input, 1_700_000_000, 1_700_000_000);
  server = await startFakeServer({ onPooling: (call) => (call === 1 ? (change(input), undefined) : undefined) });
  const out = join(dir, `${name}.scored`);
  let err = '';
  const started = performance.now();
  const code = await runCli(['score', input, '--url', server.url, '--no-cache', '-o', out], { stdout: () => undefined, stderr: (t) => (err += t), isStderrTty: false, cwd: dir });
  return { code, err, out, ms: performance.now() - started };
}

describe('score over an input that changes while it runs', () => {
  it('rewritten in place with the same size and time: the bytes scored differ from the file\'s, so nothing is written', async () => {
    const run = await scoreWhile('inplace.jsonl', 8, (input) => {
      const bytes = readFileSync(input);
      bytes[bytes.indexOf('step two')] = 'S'.charCodeAt(0);
      writeFileSync(input, bytes);
      utimesSync(input, 1_700_000_000, 1_700_000_000);
    });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/inplace\.jsonl changed while it was being scored \(its bytes are not the ones scored\): nothing was written/);
    expect(run.err).not.toMatch(/\n\s+at /);
    expect(() => statSync(run.out)).toThrow();
  });

  it('grown while a long file is scored: stopped at the next batch, not after every line', async () => {
    const run = await scoreWhile('grown.jsonl', 640, (input) => writeFileSync(input, '{"prompt": "new", "response": "x", "score": 1}\n', { flag: 'a' }));
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/grown\.jsonl changed size \([\d,]+ → [\d,]+ bytes\) while it was being read: nothing was written/);
    // 640 lines are ten batches: the refusal comes at the second.
    expect(server!.requests.filter((r) => r.path === '/pooling').length).toBeLessThan(128);
    expect(run.ms).toBeLessThan(10_000);
    expect(() => statSync(run.out)).toThrow();
  });

  it('renamed over by another file: refused, the file named', async () => {
    const run = await scoreWhile('renamed.jsonl', 8, (input) => {
      writeFileSync(`${input}.other`, '{"prompt": "other", "response": "x", "score": 1}\n');
      renameSync(`${input}.other`, input);
    });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/renamed\.jsonl was replaced by another file while it was being read: nothing was written/);
    expect(() => statSync(run.out)).toThrow();
  });

  it('a file left alone is scored whole (exit 0)', async () => {
    const run = await scoreWhile('steady.jsonl', 130, () => undefined);
    expect(run.code).toBe(0);
    expect(readFileSync(run.out, 'utf8').trim().split('\n')).toHaveLength(130);
  });
});
