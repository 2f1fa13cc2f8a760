/**
 * The one line reader: a document's text, a file read from disk in chunks and a file's bytes held
 * whole (the panel's export) are split into the same lines, and a line over the length limit is
 * named the same way whichever of them it came from.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readText } from '../../../../src/core/read/reader';
import { lineTooLong, MAX_LINE_BYTES, splitLines } from '../../../../src/core/read/jsonLines';
import { lineText, splitByteLines, type FileLine } from '../../../../src/core/read/byteLines';
import { readFileLines } from '../../../../src/scoring/analysis/fileLines';
import { firstLineOf } from '../../../../src/scoring/inputs/traceTokenizer';
import { peekTextScores } from '../../../../src/scoring/calibration/scorerIdentity';

const PIECES = [Buffer.from('a'), Buffer.from('é'), Buffer.from('😀'), Buffer.from('\r'), Buffer.from('\n'), Buffer.from('\r\n'), Buffer.from([0xff]), Buffer.from([0xe2, 0x82]), Buffer.from('\ufeff'), Buffer.from('{"x": 1}'), Buffer.from('  ')];

function shape(line: FileLine): unknown {
  return { line: line.line, ...lineText(line), terminated: line.terminated, loneCr: Boolean(line.endsAtLoneCr), bytes: [...(line.bytes ?? [])], byteStart: line.byteStart, byteEnd: line.byteEnd };
}

describe('one reader of lines', () => {
  it('bytes held whole are split as the same file read from disk in chunks: text, flags, bytes and byte ranges', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'prof-lens-')), 'lines.jsonl');
    const samples = fc.sample(fc.array(fc.integer({ min: 0, max: PIECES.length - 1 }), { maxLength: 40 }), { numRuns: 80, seed: 5 });
    for (const picks of samples) {
      const bytes = Buffer.concat(picks.map((k) => PIECES[k]!));
      writeFileSync(path, bytes);
      const fromDisk: unknown[] = [];
      for await (const batch of readFileLines(path, 3, { keepBytes: true })) fromDisk.push(...batch.map(shape));
      // As the panel's export reads them: a view of the bytes, the text decoded when asked for.
      const whole = [...splitByteLines(new Uint8Array(bytes), { keepBytes: true, textOnDemand: true })].map(shape);
      expect(whole).toEqual(fromDisk);
    }
  });

  it('a decoded text gives the lines its bytes give (valid UTF-8, any breaks, a BOM)', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom('a', 'é', '😀', '\r', '\n', '\r\n', '\ufeff', ' ', '{}'), { maxLength: 40 }), (parts) => {
      const text = parts.join('');
      const fromBytes = [...splitByteLines(Buffer.from(text))].map((l) => [l.line, l.raw, l.terminated, Boolean(l.endsAtLoneCr)]);
      expect([...splitLines(text)].map((l) => [l.line, l.raw, l.terminated, Boolean(l.endsAtLoneCr)])).toEqual(fromBytes);
    }));
  });

  it('a text line over the length limit is named as a file line over it is, in linear time; the lines around it are read', () => {
    // 90 M characters of three UTF-8 bytes each: 270 MB, over the 256 MB limit, as a string V8 holds.
    const long = '€'.repeat(90_000_000);
    const started = performance.now();
    const { records, diagnostics } = readText(`{"prompt":"p","response":"a"}\n${long}\r\n{"prompt":"q","response":"b"}\n`, 'long.jsonl');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(records.map((r) => r.line)).toEqual([1, 3]);
    expect(diagnostics).toEqual([lineTooLong(2, 270_000_000)]);
    expect(diagnostics[0]!.message).toBe(`line 2 is 257 MB long, over the ${MAX_LINE_BYTES / 1048576} MB limit for one line: it is not read`);
  });

  it('the first line a trace sniff looks at and the records a score peek reads end where the analysis ends them', () => {
    expect(firstLineOf('\ufeff{"model_name":"m"}\r{"x":1}\n')).toBe('{"model_name":"m"}');
    expect(firstLineOf('')).toBe('');
    const meta = { step_scores_meta: { scorer: 'onnx', model: 'prm-1.5b' }, prompt: 'p', response: 'a', step_scores: [0.5] };
    // A BOM before the first record and a lone CR after it: the record is still the one looked at.
    expect(peekTextScores(`\ufeff${JSON.stringify(meta)}\r{"prompt":"q"}\n`, 'scored.jsonl')).toEqual({ hasScores: true, identity: 'file:onnx:prm-1.5b' });
  });
});
