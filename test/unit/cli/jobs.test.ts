/**
 * `--jobs N` on the commands that read one file: how many threads judge the embedded checker's
 * steps. Whatever the number, the output is the same bytes; a number that is not a whole number
 * of at least one is a usage error that names the option.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';

const ROOT = join(__dirname, '../../..');
let dir: string;
let dump: string;

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: ROOT });
  return { code, out, err };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'prof-lens-jobs-'));
  dump = join(dir, 'no-scores.jsonl');
  // Over 4 MB without step scores: by default its steps are judged in a worker per core.
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < 4.1 * 1024 * 1024; i++) {
    const steps = Array.from({ length: 3 + (i % 5) }, (_, k) => `We have ${k + i % 7} + ${k} = ${2 * k + (i % 7) + (i % 11 === 0 ? 1 : 0)}.`);
    const line = JSON.stringify({ prompt: `Problem ${i >> 3}: add the numbers.`, response: `${steps.join('\n\n')}\n\nThe answer is \\boxed{${i % 5}}.`, gold: String(i % 3), score: i % 2 });
    lines.push(line);
    bytes += line.length + 1;
  }
  writeFileSync(dump, lines.join('\n') + '\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--jobs N', () => {
  it('report: one thread, two threads and the default give the same bytes', async () => {
    const one = await cli(['report', dump, '--json', '--no-cache', '--jobs', '1']);
    const two = await cli(['report', dump, '--json', '--no-cache', '--jobs', '2']);
    const byDefault = await cli(['report', dump, '--json', '--no-cache']);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.out).scorer.kind).toBe('checker');
    expect(two.out).toBe(one.out);
    expect(byDefault.out).toBe(one.out);
  }, 120_000);

  it('filter: the kept lines and decisions are the same bytes with --jobs 1 and --jobs 2', async () => {
    const written: string[] = [];
    for (const jobs of ['1', '2']) {
      const kept = join(dir, `kept-${jobs}.jsonl`);
      const decisions = join(dir, `decisions-${jobs}.jsonl`);
      expect((await cli(['filter', dump, '-o', kept, '--decisions', decisions, '--no-cache', '--jobs', jobs])).code).toBe(0);
      written.push(readFileSync(kept, 'utf8') + readFileSync(decisions, 'utf8'));
    }
    expect(written[1]).toBe(written[0]);
    expect(written[0]!.length).toBeGreaterThan(0);
  }, 120_000);

  it.each(['0', '1.5', 'two', '-3'])('--jobs %s is a usage error that names the option, before anything is read', async (value) => {
    const result = await cli(['report', dump, '--jobs', value]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`--jobs expects a whole number ≥ 1, got "${value}"`);
    expect(result.out).toBe('');
  });
});
