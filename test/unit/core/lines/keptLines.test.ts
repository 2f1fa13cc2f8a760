/**
 * `keptLineBytes` is given each line of `filter`'s second read with its text behind a getter that
 * decodes the bytes: a line kept whole or left out must be decided without its text (decoding every
 * line cost `filter` a fifth of its time), and a line partly kept must still be trimmed exactly.
 */
import { describe, expect, it } from 'vitest';
import { keptLineBytes, type LineBytes } from '../../../../src/core/lines/keptLines';

const decided = (kept: boolean[]): { index: number; decision: { kept: boolean } }[] => kept.map((k, index) => ({ index, decision: { kept: k } }));

/** A line whose text is decoded on demand, counting how often it was asked for. */
function lazyLine(text: string): { line: LineBytes; reads: () => number } {
  const bytes = new TextEncoder().encode(`${text}\n`);
  let reads = 0;
  const line = {
    bytes,
    get raw(): string {
      reads++;
      return new TextDecoder().decode(bytes.subarray(0, bytes.length - 1));
    },
    get invalidUtf8(): boolean {
      reads++;
      return false;
    },
  };
  return { line, reads: () => reads };
}

describe('keptLineBytes', () => {
  it('copies a line kept whole, and leaves out a line none of whose rollouts is kept, without decoding it', () => {
    const flat = lazyLine('{"prompt": "p", "response": "r", "score": 1}');
    expect(keptLineBytes(flat.line, decided([true]))).toBe(flat.line.bytes);
    const dropped = lazyLine('{"prompt": "p", "responses": ["a", "b"], "scores": [1, 0]}');
    expect(keptLineBytes(dropped.line, decided([false, false]))).toBeNull();
    const grouped = lazyLine('{"prompt": "p", "responses": ["a", "b"], "scores": [1, 0]}');
    expect(keptLineBytes(grouped.line, decided([true, true]))).toBe(grouped.line.bytes);
    expect(flat.reads() + dropped.reads() + grouped.reads()).toBe(0);
  });

  it('decodes a line partly kept and writes it trimmed to its kept responses', () => {
    const grouped = lazyLine('{"prompt": "p", "responses": ["a", "b"], "scores": [1, 0]}');
    const bytes = keptLineBytes(grouped.line, decided([false, true]));
    expect(new TextDecoder().decode(bytes ?? new Uint8Array())).toBe('{"prompt": "p", "responses": ["b"], "scores": [0]}\n');
    expect(grouped.reads()).toBeGreaterThan(0);
  });
});
