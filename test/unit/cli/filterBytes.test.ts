/**
 * `prof-lens filter` writes exactly the bytes it decided. Before: with `--field responses=gens` it
 * reported "kept 6 of 12" and wrote all 12; an MCQ's `choices` as long as `responses` was cut too;
 * with `responses` written twice the decoy was trimmed and the parsed array written whole; a
 * `.json` array was re-serialised (64-bit ids rounded, `NaN`/`1e400` → `null`, `1.0` → `1`); and
 * an input renamed over while it ran had its kept lines taken by number from the other file.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { keptBytes } from '../../../src/vscode/panel/exportFiles';
import { startFakeServer, type FakeServer } from '../scoring/scorers/http/fakePoolingServer';
import type { RolloutSummary } from '../../../src/protocol/analysis';

const dir = mkdtempSync(join(tmpdir(), 'prof-lens-filter-bytes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: dir });
  return { code, out, err };
}

function file(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('grouped lines are trimmed in the arrays the analysis read, and nowhere else', () => {
  it('a mapped responses path (--field responses=gens): the kept count is what is written', async () => {
    const record = (q: string): string => JSON.stringify({ question: q, gens: ['a\n\nb', 'c\n\nd', 'e\n\nf', 'g\n\nh', 'i\n\nj', 'k\n\nl'], acc_list: [1, 0, 1, 0, 1, 1], extra: ['x', 'y', 'z', 'u', 'v', 'w'] });
    const input = file('mapped.jsonl', `${record('q0')}\n${record('q1')}\n`);
    const out = join(dir, 'mapped.kept.jsonl');
    const run = await cli(['filter', input, '--field', 'responses=gens', '--field', 'outcomes=acc_list', '--m', '3', '-o', out]);
    expect(run.err).toMatch(/kept 6 of 12 rollouts \(2 lines\)/);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown[]>);
    expect(lines.map((l) => l.gens!.length)).toEqual([3, 3]);
    expect(lines.map((l) => l.acc_list!.length)).toEqual([3, 3]);
    // Not read per response by the analysis: left whole.
    expect(lines.map((l) => l.extra!.length)).toEqual([6, 6]);
  });

  it("an MCQ's choices, as long as its responses, are left whole", async () => {
    const line = '{"question": "Which? A) 1 B) 2 C) 3 D) 4", "choices": ["1", "2", "3", "4"], "responses": ["The answer is A", "The answer is B", "The answer is A", "The answer is C"], "gold": "A", "score": [1, 0, 1, 0]}';
    const out = join(dir, 'mcq.kept.jsonl');
    await cli(['filter', file('mcq.jsonl', `${line}\n`), '--m', '2', '-o', out]);
    expect(readFileSync(out, 'utf8')).toBe('{"question": "Which? A) 1 B) 2 C) 3 D) 4", "choices": ["1", "2", "3", "4"], "responses": ["The answer is A", "The answer is C"], "gold": "A", "score": [1, 0]}\n');
  });

  it('responses written twice: the parsed (last) array is trimmed, the decoy left as it is', async () => {
    const line = '{"question":"q","responses":["d1","d2","d3","d4"],"responses":["x\\n\\ny","y\\n\\nz","z\\n\\nw","w\\n\\nv"],"score":[1,0,1,0]}';
    const out = join(dir, 'dup.kept.jsonl');
    await cli(['filter', file('dup.jsonl', `${line}\r\n`), '--m', '2', '-o', out]);
    const kept = readFileSync(out, 'utf8');
    expect(kept).toMatch(/^\{"question":"q","responses":\["d1","d2","d3","d4"\],"responses":\["[a-z\\]+","[a-z\\]+"\],"score":\[1,0\]\}\r\n$/);
    expect((JSON.parse(kept) as { responses: string[] }).responses).toHaveLength(2);
  });
});

describe('a .json array is written from its own text, element by element', () => {
  it('64-bit ids, NaN, 1e400 and 1.0 stay as written; a pretty-printed element becomes one line; two elements on one line are two', async () => {
    const text = '[\n  {"uid": 12345678901234567891, "prompt": "p", "response": "a\\n\\nb", "score": 1.0,\n   "step_scores": [NaN, 0.5], "extra": 1e400},\n  {"uid": 12345678901234567891, "prompt": "p", "response": "c\\n\\nd", "score": 0, "step_scores": [0.25, 0.5]}, {"uid": 7, "prompt": "q", "response": "e", "score": 1.0, "step_scores": [0.9]}\n]\n';
    const out = join(dir, 'arr.kept.jsonl');
    const run = await cli(['filter', file('arr.json', text), '--m', '1', '-o', out]);
    expect(run.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('{"uid": 12345678901234567891, "prompt": "p", "response": "a\\n\\nb", "score": 1.0,"step_scores": [NaN, 0.5], "extra": 1e400}\n{"uid": 7, "prompt": "q", "response": "e", "score": 1.0, "step_scores": [0.9]}\n');
  });
});

describe('an input that changes while filter runs is refused, nothing written', () => {
  let server: FakeServer;
  afterEach(() => server?.close());

  /** Filters `name` while the model server, at its first request, does `change` to the input. */
  async function filterWhile(name: string, change: (input: string) => void): Promise<{ code: number; err: string; out: string }> {
    const lines = Array.from({ length: 8 }, (_, i) => JSON.stringify({ prompt: `p${i >> 2}`, response: `step one ${i}\n\nstep two`, score: i % 2 })).join('\n') + '\n';
    const input = file(name, lines);
    // A whole second, so that a change can put the very same time back.
    utimesSync(input, 1_700_000_000, 1_700_000_000);
    server = await startFakeServer({ onPooling: (call) => (call === 1 ? (change(input), undefined) : undefined) });
    const out = join(dir, `${name}.kept`);
    const run = await cli(['filter', input, '--url', server.url, '--no-cache', '-o', out]);
    return { ...run, out };
  }

  it('renamed over by another file: exit 2, the file named, no output', async () => {
    const run = await filterWhile('renamed.jsonl', (input) => {
      writeFileSync(`${input}.other`, '{"prompt": "other", "response": "x", "score": 1}\n');
      renameSync(`${input}.other`, input);
    });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/renamed\.jsonl was replaced by another file while it was being read: nothing was written/);
    expect(() => statSync(run.out)).toThrow();
  });

  it('rewritten in place with the same size and time: the bytes read differ, so it is refused', async () => {
    const run = await filterWhile('inplace.jsonl', (input) => {
      const bytes = readFileSync(input);
      bytes[bytes.indexOf('step two')] = 'S'.charCodeAt(0);
      writeFileSync(input, bytes);
      utimesSync(input, 1_700_000_000, 1_700_000_000);
    });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/inplace\.jsonl changed while it was being filtered \(its bytes are not the ones analysed\)/);
    expect(() => statSync(run.out)).toThrow();
  });
});

describe('the editor\'s Export Kept Rollouts writes the same bytes', () => {
  const summary = (id: number, line: number, index: number, kept: boolean): RolloutSummary => ({ id, line, index, decision: { kept } } as unknown as RolloutSummary);

  it('mapped responses, and an MCQ\'s choices left whole', () => {
    const text = '{"q": "x", "choices": ["1", "2"], "gens": ["a", "b"], "acc": [1, 0]}\r\n';
    const out = keptBytes(Buffer.from(text), [summary(0, 1, 0, false), summary(1, 1, 1, true)], 'f.jsonl', { responses: 'gens', outcomes: 'acc' });
    expect(Buffer.from(out.bytes).toString()).toBe('{"q": "x", "choices": ["1", "2"], "gens": ["b"], "acc": [0]}\r\n');
  });

  it('a line that is not valid UTF-8 is trimmed on its bytes', () => {
    const bytes = Buffer.concat([Buffer.from('{"p": "\xff'.slice(0, 7)), Buffer.from([0xff, 0xfe]), Buffer.from('", "responses": ["a", "b"]}\n')]);
    const out = keptBytes(bytes, [summary(0, 1, 0, true), summary(1, 1, 1, false)], 'f.jsonl');
    expect(Buffer.from(out.bytes)).toEqual(Buffer.concat([Buffer.from('{"p": "'), Buffer.from([0xff, 0xfe]), Buffer.from('", "responses": ["a"]}\n')]));
  });
});
