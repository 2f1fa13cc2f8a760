/**
 * Parquet files that lie, read row by row under the limits of a JSON Lines line. Before: four
 * uids above 2^53 became one group and `filter` wrote an id never in the file; a JSON cell nested
 * 20,000 deep overflowed the stack; a timestamp of 2^62 ms threw `Invalid time value`; an
 * oversized row threw `Invalid string length` (each failing the whole file, no row named); a
 * 104 KB file whose dictionary repeats a 1 MB string in 6,000 rows took 4.3 GB and died out of
 * memory after two minutes, taking `trend` and its good steps with it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../src/cli/main';
import { readLines } from '../../../../src/core/read/reader';
import { analysePath } from '../../../../src/scoring/analysis/analysePath';
import { readInputLines } from '../../../../src/scoring/inputs/inputLines';

const ROOT = join(__dirname, '../../../..');
const TRL = join(ROOT, 'test/fixtures/trainers/trl/grpo-qwen2.5-gsm8k/completions');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-parquet-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Column = Parameters<typeof parquetWriteBuffer>[0]['columnData'][number];

function write(name: string, columnData: Column[], options: { codec?: 'UNCOMPRESSED' } = {}): string {
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(parquetWriteBuffer({ columnData, ...options })));
  return path;
}

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string; seconds: number }> {
  let out = '';
  let err = '';
  const started = performance.now();
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: dir });
  return { code, out, err, seconds: (performance.now() - started) / 1000 };
}

/** Four rows per prompt, alternately right and wrong. */
const rows = (n: number, prompt: (i: number) => string) => ({
  prompt: { name: 'prompt', data: Array.from({ length: n }, (_, i) => prompt(i)), type: 'STRING' } as Column,
  completion: { name: 'completion', data: Array.from({ length: n }, (_, i) => `Two and two.\n\nThe answer is ${i % 2 === 0 ? 4 : 5}`), type: 'STRING' } as Column,
  correct: { name: 'correct', data: Array.from({ length: n }, (_, i) => i % 2 === 0), type: 'BOOLEAN' } as Column,
});

describe('parquet rows', () => {
  it('int64 uids above 2^53 stay four groups; filter writes only ids that are in the file', async () => {
    const uids = [9223372036854775807n, 9223372036854775806n, 9223372036854775805n, 9007199254740993n];
    const r = rows(16, (i) => `What is 2 + 2? (${i >> 2})`);
    const path = write('uids.parquet', [{ name: 'uid', data: Array.from({ length: 16 }, (_, i) => uids[i >> 2]!), type: 'INT64' }, r.prompt, r.completion, r.correct]);
    const report = JSON.parse((await cli(['report', path, '--json', '--no-cache'])).out);
    expect(report.groups).toBe(4);
    const out = join(dir, 'uids.kept.jsonl');
    expect((await cli(['filter', path, '-o', out, '--m', '2', '--no-cache'])).code).toBe(0);
    const written = [...readFileSync(out, 'utf8').matchAll(/"uid":(\d+)/g)].map((m) => BigInt(m[1]!));
    expect(written).toHaveLength(8);
    expect(new Set(written)).toEqual(new Set(uids));
  });

  it('a JSON cell nested 20,000 deep and a timestamp of 2^62 ms: the deep row is named, the date kept as text, the rest read', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const placeholder = 'Z'.repeat(deep.length - 2);
    const r = rows(3, () => 'What is 2 + 2?');
    const path = write('cells.parquet', [
      r.prompt, r.completion, r.correct,
      { name: 'meta', data: [{ ok: 1 }, placeholder, { ok: 3 }], type: 'JSON' },
      { name: 'logged_at', data: [2n ** 62n, 0n, 1700000000000n], type: 'TIMESTAMP' },
    ], { codec: 'UNCOMPRESSED' });
    // The writer cannot write a value nested this deep (it recurses): its bytes take the place of a string of the same length.
    const bytes = readFileSync(path);
    const from = Buffer.from(JSON.stringify(placeholder));
    let replaced = 0;
    for (let at = bytes.indexOf(from); at !== -1; at = bytes.indexOf(from, at + 1), replaced++) bytes.write(deep, at, 'latin1');
    expect(replaced).toBeGreaterThan(0);
    writeFileSync(path, bytes);
    const started = performance.now();
    const { analysis } = await analysePath(path, { scorer: 'checker' });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(analysis.rollouts.map((x) => x.line)).toEqual([1, 3]);
    const errors = analysis.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toEqual([expect.objectContaining({ line: 2, code: 'unreadable-row', message: 'row 2: column "meta" is JSON nested more than 1,000 deep: the row is not read' })]);
    const lines = [];
    for await (const batch of readInputLines(path)) lines.push(...batch);
    expect(JSON.parse(lines[0]!.raw)).toMatchObject({ meta: { ok: 1 }, logged_at: '4611686018427387904 ms since 1970-01-01 (outside the range of a date)' });
    expect(JSON.parse(lines[2]!.raw).logged_at).toBe('2023-11-14T22:13:20.000Z');
    // The command says which file and row.
    const report = await cli(['report', path, '--no-cache']);
    expect(report.code).toBe(1);
    expect(report.err).toContain(`${path}:2: error: row 2: column "meta" is JSON nested more than 1,000 deep`);
  });

  it('a row over the length limit is named by its row and never made one string; the others are read', async () => {
    const r = rows(3, () => 'What is 2 + 2?');
    const long = 'x'.repeat(3 * 1048576);
    const path = write('long.parquet', [r.prompt, { name: 'completion', data: ['a\n\nThe answer is 4', long, 'b\n\nThe answer is 5'], type: 'STRING' }, r.correct,
      { name: 'notes', data: ['n', 'n', 'y'.repeat(1.2 * 1048576)], type: 'STRING' }, { name: 'more', data: ['m', 'm', 'z'.repeat(1.2 * 1048576)], type: 'STRING' }]);
    const lines = [];
    for await (const batch of readInputLines(path, { maxLineBytes: 2 * 1048576 })) lines.push(...batch);
    const read = readLines(lines);
    expect(read.records.map((x) => x.line)).toEqual([1]);
    expect(read.diagnostics.map((d) => d.message)).toEqual([
      'row 2: column "completion" holds 3 MB, over the 2 MB limit for one row: the row is not read',
      'row 3: its text comes to more than the 2 MB limit for one row: the row is not read',
    ]);
  });

  it('a 104 KB file whose dictionary repeats 1 MB in 6,000 rows: read up to its text budget, named, in seconds and bounded memory', () => {
    const big = `${'x '.repeat(500_000)}\n\nThe answer is 4`;
    const path = write('dictionary.parquet', [
      { name: 'prompt', data: Array.from({ length: 6000 }, (_, i) => `q${i % 1500}`), type: 'STRING' },
      { name: 'completion', data: Array.from({ length: 6000 }, () => big), type: 'STRING' },
      { name: 'correct', data: Array.from({ length: 6000 }, (_, i) => i % 2 === 0), type: 'BOOLEAN' },
    ]);
    // The built command, with a heap of 1 GB: before, it needed 4.3 GB and died.
    const started = performance.now();
    const run = spawnSync(process.execPath, ['--max-old-space-size=1024', join(ROOT, 'dist/cli.js'), 'report', path, '--no-cache'], { encoding: 'utf8', timeout: 120_000 });
    expect((performance.now() - started) / 1000).toBeLessThan(60);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/dictionary\.parquet:\d+: error: rows \d+–6,000 are not read: the rows of this 10\d KB file come to more than 128 MB of text \(the limit is 64 times the file's size, at least 128 MB\); a long value its dictionary repeats in every row is the usual cause/);
    expect(run.stdout).toMatch(/rollouts 1\d\d in/);
  });

  it('trend names a step file it cannot read and reports the other steps', async () => {
    const run = join(dir, 'trl-run');
    mkdirSync(join(run, 'completions'), { recursive: true });
    copyFileSync(join(TRL, 'completions_00001.parquet'), join(run, 'completions', 'completions_00001.parquet'));
    copyFileSync(join(TRL, 'completions_00003.parquet'), join(run, 'completions', 'completions_00003.parquet'));
    const broken = readFileSync(join(TRL, 'completions_00002.parquet'));
    writeFileSync(join(run, 'completions', 'completions_00002.parquet'), broken.subarray(0, broken.length >> 1));
    const result = await cli(['trend', run, '--json', '--no-cache']);
    expect(result.seconds).toBeLessThan(30);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out).runs[0].steps.map((s: { step: number }) => s.step)).toEqual([1, 3]);
    expect(result.err).toMatch(/completions_00002\.parquet.*could not be read as parquet/);
  });
});
