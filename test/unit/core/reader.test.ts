import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readText, readLine, splitLines } from '../../../src/core/reader';
import { readFileLines } from '../../../src/cli/fileLines';

const good = JSON.stringify({ prompt: 'p', response: 'a\n\nb', score: 1 });

describe('reading malformed input', () => {
  it('CRLF and a BOM read like LF', () => {
    const { records, diagnostics } = readText(`\uFEFF${good}\r\n${good}\r\n`);
    expect(records.length).toBe(2);
    expect(diagnostics).toEqual([]);
    expect(records[0]!.raw).toBe(good);
  });

  it('blank lines are skipped without a diagnostic and line numbers stay true', () => {
    const { records } = readText(`${good}\n\n   \n${good}\n`);
    expect(records.map((r) => r.line)).toEqual([1, 4]);
  });

  it('NaN and Infinity literals are read as null, with a note', () => {
    const { records, diagnostics } = readText('{"prompt":"p","response":"r","step_scores":[0.5,NaN,Infinity,-Infinity],"note":"NaN stays"}\n');
    expect((records[0]!.value as { step_scores: unknown[] }).step_scores).toEqual([0.5, null, null, null]);
    expect((records[0]!.value as { note: string }).note).toBe('NaN stays');
    expect(diagnostics[0]).toMatchObject({ line: 1, code: 'non-finite', severity: 'info' });
  });

  it('a truncated last line is one error naming the line; the lines before are read', () => {
    const { records, diagnostics } = readText(`${good}\n${good}\n{"prompt":"p","respo`);
    expect(records.length).toBe(2);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ line: 3, code: 'truncated', severity: 'error' });
    expect(diagnostics[0]!.message).toMatch(/line 3: .*cut off/);
  });

  it('a broken line in the middle is an error; the rest is read', () => {
    const { records, diagnostics } = readText(`${good}\n{"prompt": oops}\n${good}\n`);
    expect(records.map((r) => r.line)).toEqual([1, 3]);
    expect(diagnostics[0]).toMatchObject({ line: 2, code: 'bad-json' });
    expect(diagnostics[0]!.message).toMatch(/^line 2: expected one JSON object per line/);
  });

  it('non-object lines say what was found', () => {
    const { diagnostics } = readText('[1,2]\n"text"\n42\nnull\n' + good + '\n', 'x.jsonl');
    expect(diagnostics.map((d) => d.code)).toEqual(['not-object', 'not-object', 'not-object', 'not-object']);
    expect(diagnostics[0]!.message).toMatch(/expected a JSON object.*found an array of 2/);
  });

  it('a 1 MB line is read whole', () => {
    const big = JSON.stringify({ prompt: 'p', response: 'x'.repeat(1024 * 1024) });
    const { records } = readText(`${big}\n${good}\n`);
    expect(records.length).toBe(2);
    expect((records[0]!.value as { response: string }).response.length).toBe(1024 * 1024);
  });

  it('a JSON array document keeps each element’s line; a broken element costs only itself', () => {
    const text = '[\n  {"problem": "a", "steps": ["x"], "label": -1, "final_answer_correct": true},\n  {"problem": oops},\n  {"problem": "c", "steps": ["y"], "label": 0, "final_answer_correct": false}\n]\n';
    const { records, diagnostics } = readText(text, 'bench.json');
    expect(records.map((r) => r.line)).toEqual([2, 4]);
    expect(diagnostics[0]).toMatchObject({ line: 3, code: 'bad-json' });
  });

  it('splitLines reports whether the last line was terminated', () => {
    expect([...splitLines('a\nb')].map((l) => [l.raw, l.terminated])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(readLine({ line: 1, raw: '   ', terminated: true }).kind).toBe('blank');
  });
});

describe('reading files from disk', () => {
  it('invalid UTF-8 is flagged on its line, valid U+FFFD is not, and byte ranges cover the original bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prof-lens-'));
    const path = join(dir, 'bad.jsonl');
    const bad = Buffer.concat([Buffer.from('{"prompt":"p","response":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\r\n')]);
    const okWithFffd = Buffer.from('{"prompt":"p","response":"\uFFFD is fine"}\n');
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(good + '\n'), bad, okWithFffd]));
    const lines = [];
    for await (const batch of readFileLines(path)) lines.push(...batch);
    expect(lines.map((l) => Boolean(l.invalidUtf8))).toEqual([false, true, false]);
    expect(lines[0]!.raw).toBe(good);
    expect(lines[1]!.raw.endsWith('"}')).toBe(true);
    expect(lines[1]!.byteEnd - lines[1]!.byteStart).toBe(bad.length);
    const result = readLine(lines[1]!);
    expect(result.kind === 'record' && result.diagnostic?.code).toBe('invalid-utf8');
  });
});
