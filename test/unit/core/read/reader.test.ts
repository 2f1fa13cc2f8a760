import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readText, readLine } from '../../../../src/core/read/reader';
import { splitLines } from '../../../../src/core/read/jsonLines';
import { lineText } from '../../../../src/core/read/byteLines';
import { readFileLines } from '../../../../src/scoring/analysis/fileLines';

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
    for (const chunk of [1, 2, 3, 7]) {
      const small = [];
      for await (const batch of readFileLines(path, chunk)) small.push(...batch);
      expect(small.map((l) => [Boolean(l.invalidUtf8), l.byteEnd])).toEqual([[false, 3 + good.length + 1], [true, 3 + good.length + 1 + bad.length], [false, 3 + good.length + 1 + bad.length + okWithFffd.length]]);
      expect(small.map((l) => l.raw)).toEqual([good, bad.subarray(0, -2).toString('utf8'), okWithFffd.subarray(0, -1).toString('utf8')]);
    }
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

describe('line breaks agree with VS Code: \\r\\n, \\n and a lone \\r', () => {
  it('a lone CR ends a line, so the records after it keep the line numbers the editor shows', () => {
    // The first record has a lone CR as whitespace: VS Code shows it on two lines (1 and 2).
    const text = `{"prompt":"p",\r"response":"a"}\n${good}\r\n${good}\r${good}\n`;
    const { records, diagnostics } = readText(text, 'x.jsonl');
    expect(records.map((r) => r.line)).toEqual([3, 4, 5]);
    expect(diagnostics.map((d) => d.line)).toEqual([1, 2]);
    expect(diagnostics[0]!.message).toContain('lone carriage return');
    expect(text.split(/\r\n|\r|\n/).length - 1).toBe(5);
  });

  it('splitLines matches VS Code’s split on any mix of breaks', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom('a', 'b', '\r', '\n', '\r\n', ' '), { maxLength: 40 }), (parts) => {
      const text = parts.join('');
      const ours = [...splitLines(text)].map((l) => l.raw);
      const editor = text.split(/\r\n|\r|\n/);
      // The editor shows an empty last line after a final break; splitLines does not yield it.
      if (editor.length > 0 && editor[editor.length - 1] === '' && (text.endsWith('\n') || text.endsWith('\r'))) editor.pop();
      expect(ours).toEqual(text === '' ? [] : editor);
    }));
  });

  it('a JSON array document counts a lone CR as a line', () => {
    const text = '[\r  {"problem": "a", "steps": ["x"], "label": -1, "final_answer_correct": true},\r\n\r  {"problem": "c", "steps": ["y"], "label": 0, "final_answer_correct": false}\r]\r';
    expect(readText(text, 'bench.json').records.map((r) => r.line)).toEqual([2, 4]);
  });

  it('lines read with their text on demand give the text, flags and bytes of lines read whole, whatever the chunk size', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prof-lens-'));
    const path = join(dir, 'on-demand.jsonl');
    const pieces = [Buffer.from('a'), Buffer.from('é'), Buffer.from('😀'), Buffer.from('\r'), Buffer.from('\n'), Buffer.from('\r\n'), Buffer.from([0xff]), Buffer.from([0xe2, 0x82]), Buffer.from('\ufeff'), Buffer.from('{"x": 1}')];
    const samples = fc.sample(fc.array(fc.integer({ min: 0, max: pieces.length - 1 }), { maxLength: 30 }), { numRuns: 60, seed: 11 });
    for (const picks of samples) {
      const bytes = Buffer.concat([...(picks[0] === 8 ? [] : [Buffer.from('\ufeff')]), ...picks.map((k) => pieces[k]!)]);
      writeFileSync(path, bytes);
      for (const chunk of [1, 2, 3, 7, 64]) {
        const whole = [];
        for await (const batch of readFileLines(path, chunk, { keepBytes: true })) whole.push(...batch);
        const onDemand = [];
        // Each line is looked at before the next batch is read: its bytes may be a view of the read buffer.
        for await (const batch of readFileLines(path, chunk, { keepBytes: true, textOnDemand: true })) {
          for (const line of batch) onDemand.push({ line: line.line, ...lineText(line), bytes: [...line.bytes!], byteStart: line.byteStart, byteEnd: line.byteEnd, loneCr: Boolean(line.endsAtLoneCr) });
        }
        expect(onDemand).toEqual(whole.map((l) => ({ line: l.line, raw: l.raw, invalidUtf8: l.invalidUtf8 === true, bytes: [...l.bytes!], byteStart: l.byteStart, byteEnd: l.byteEnd, loneCr: Boolean(l.endsAtLoneCr) })));
      }
    }
  });

  it('readFileLines splits the bytes the same way, whatever the chunk size, and its byte ranges tile the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prof-lens-'));
    const path = join(dir, 'mixed.jsonl');
    const samples = fc.sample(fc.array(fc.constantFrom('a', 'é', '€', '😀', '\r', '\n', '\r\n', '{}'), { maxLength: 30 }), { numRuns: 60, seed: 7 });
    for (const parts of samples) {
      const text = parts.join('');
      writeFileSync(path, text);
      for (const chunk of [1, 2, 3, 5, 64]) {
        const lines = [];
        for await (const batch of readFileLines(path, chunk)) lines.push(...batch);
        expect(lines.map((l) => [l.line, l.raw, l.terminated, Boolean(l.endsAtLoneCr)]))
          .toEqual([...splitLines(text)].map((l) => [l.line, l.raw, l.terminated, Boolean(l.endsAtLoneCr)]));
        expect(lines.map((l) => l.byteStart)).toEqual(lines.length ? [0, ...lines.slice(0, -1).map((l) => l.byteEnd)] : []);
        expect(lines.at(-1)?.byteEnd ?? 0).toBe(Buffer.byteLength(text));
      }
    }
  });
});
