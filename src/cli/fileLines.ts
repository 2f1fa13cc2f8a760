/**
 * Streaming a file from disk as lines, in chunks, so a 50 MB dump is never one string. Each line
 * keeps its byte range, so `filter` can copy the original bytes of the lines it keeps.
 */
import { open } from 'node:fs/promises';
import type { TextLine } from '../core/reader';

export interface FileLine extends TextLine {
  byteStart: number;
  /** Byte offset just past the line's terminator (or the end of the file). */
  byteEnd: number;
}

// Reads are 1 MB (fewer round trips); callers analyse the lines in smaller slices.
const CHUNK = 1024 * 1024;
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** Lines of a file, in batches (each batch is one chunk's worth of complete lines). */
export async function* readFileLines(path: string): AsyncGenerator<FileLine[]> {
  const handle = await open(path, 'r');
  try {
    let carry: Buffer = Buffer.alloc(0);
    let carryStart = 0;
    let line = 1;
    let position = 0;
    // One read buffer for the whole file: each line is decoded to a string before the next read.
    const chunk = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, position);
      position += bytesRead;
      const data = carry.length ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      const isLast = bytesRead === 0;
      const batch: FileLine[] = [];
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
        batch.push(decodeLine(data, { start, end: nl, line: line++, base: carryStart, terminated: true }));
        start = nl + 1;
      }
      if (isLast && start < data.length) batch.push(decodeLine(data, { start, end: data.length, line: line++, base: carryStart, terminated: false }));
      carry = Buffer.from(data.subarray(start));
      carryStart += start;
      if (batch.length) yield batch;
      if (isLast) return;
    }
  } finally {
    await handle.close();
  }
}

interface Slice {
  start: number;
  end: number;
  line: number;
  base: number;
  terminated: boolean;
}

function decodeLine(data: Buffer, s: Slice): FileLine {
  let from = s.start;
  if (s.base === 0 && s.start === 0 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) from = 3;
  let to = s.end;
  if (to > from && data[to - 1] === 13) to--;
  const raw = data.toString('utf8', from, to);
  const result: FileLine = { line: s.line, raw, terminated: s.terminated, byteStart: s.base + s.start, byteEnd: s.base + (s.terminated ? s.end + 1 : s.end) };
  // A replacement character may be in the file legitimately; only then pay for a strict decode.
  if (raw.includes('\uFFFD') && !isValidUtf8(data.subarray(from, to))) result.invalidUtf8 = true;
  return result;
}

function isValidUtf8(bytes: Buffer): boolean {
  try {
    strictDecoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
