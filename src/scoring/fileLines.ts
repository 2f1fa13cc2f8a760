/**
 * Streaming a file from disk as lines, in chunks, so a large dump is never one string. Each line
 * keeps its byte range, so `filter` can copy the original bytes of the lines it keeps. Lines end
 * where VS Code ends them (`\r\n`, `\n`, lone `\r`), so line numbers agree with the editor's.
 *
 * Linear in the file size however long a line is: the chunks of an unfinished line are collected
 * and joined once, when its end arrives (re-copying the pending bytes on every read made a 200 MB
 * line cost minutes and gigabytes).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { LineBreakScanner } from '../core/lineBreaks';
import type { TextLine } from '../core/reader';

export interface FileLine extends TextLine {
  byteStart: number;
  /** Byte offset just past the line's terminator (or the end of the file). */
  byteEnd: number;
}

/** Reads are 1 MB (fewer round trips); callers analyse the lines in smaller slices. */
const CHUNK = 1024 * 1024;
const LF = 10;
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Lines of a file, in batches (each batch is one chunk's worth of complete lines).
 *
 * Read with blocking reads, one chunk at a time, and a turn of the event loop after each: every
 * caller is a command or a worker thread, which has nothing else to do meanwhile but read its
 * messages (a cancel), and a read through the thread pool cost up to a few milliseconds of waiting
 * per megabyte whenever the other cores were busy (two summary workers on two cores waited a
 * tenth of their time).
 */
export async function* readFileLines(path: string, chunkBytes = CHUNK): AsyncGenerator<FileLine[]> {
  const fd = openSync(path, 'r');
  try {
    const splitter = new LineSplitter();
    let position = 0;
    // One buffer for every read: the splitter decodes what it is given before it returns (an
    // unfinished line keeps its text and at most three bytes of a split character, copied), so
    // nothing refers to the bytes of the last read.
    const chunk = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const bytesRead = readSync(fd, chunk, 0, chunkBytes, position);
      position += bytesRead;
      const batch = bytesRead === 0 ? splitter.end() : splitter.push(chunk.subarray(0, bytesRead));
      if (batch.length) yield batch;
      if (bytesRead === 0) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    closeSync(fd);
  }
}

/** Turns consecutive chunks of a file into lines; a line may span any number of chunks. */
export class LineSplitter {
  /** The unfinished line so far, decoded chunk by chunk (its bytes are not kept). */
  private pending: PendingLine | null = null;
  /** The bytes so far ended with a `\r` whose meaning (`\r\n` or lone) the next chunk decides. */
  private isCrPending = false;
  private lineStart: number;
  private line: number;

  /** `at` is where the first chunk starts in the file (a BOM is only stripped at byte 0). */
  constructor(at: { byte: number; line: number } = { byte: 0, line: 1 }) {
    this.lineStart = at.byte;
    this.line = at.line;
  }

  /** The lines that end in `chunk` (and the chunks before it). */
  push(chunk: Buffer): FileLine[] {
    const batch: FileLine[] = [];
    let start = 0;
    if (this.isCrPending) {
      this.isCrPending = false;
      const isCrLf = chunk[0] === LF;
      batch.push(this.finish(chunk.subarray(0, 0), { terminator: isCrLf ? 2 : 1, isLoneCr: !isCrLf }));
      start = isCrLf ? 1 : 0;
    }
    const breaks = new LineBreakScanner(chunk);
    for (let at = breaks.find(start); at; at = breaks.find(start)) {
      if (at.isLoneCr && at.end === chunk.length - 1) {
        this.continueLine(chunk.subarray(start, at.end));
        this.isCrPending = true;
        return batch;
      }
      batch.push(this.finish(chunk.subarray(start, at.end), { terminator: at.next - at.end, isLoneCr: at.isLoneCr }));
      start = at.next;
    }
    if (start < chunk.length) this.continueLine(chunk.subarray(start));
    return batch;
  }

  /** The last line, at the end of the file: ended by a lone `\r`, or not terminated at all. */
  end(): FileLine[] {
    const empty = Buffer.alloc(0);
    if (this.isCrPending) {
      this.isCrPending = false;
      return [this.finish(empty, { terminator: 1, isLoneCr: true })];
    }
    return this.pending ? [this.finish(empty, { terminator: 0, isLoneCr: false })] : [];
  }

  private continueLine(bytes: Buffer): void {
    this.pending ??= new PendingLine();
    this.pending.add(bytes);
  }

  private finish(tail: Buffer, end: { terminator: number; isLoneCr: boolean }): FileLine {
    const pending = this.pending;
    this.pending = null;
    const decoded = pending ? pending.close(tail) : decode(tail);
    const byteStart = this.lineStart;
    const byteEnd = byteStart + (pending?.bytes ?? 0) + tail.length + end.terminator;
    this.lineStart = byteEnd;
    // The BOM is part of line 1's bytes (filter copies them) but not of its text.
    const raw = byteStart === 0 && decoded.text.charCodeAt(0) === 0xfeff ? decoded.text.slice(1) : decoded.text;
    const line: FileLine = { line: this.line++, raw, terminated: end.terminator > 0, byteStart, byteEnd };
    if (decoded.isInvalidUtf8) line.invalidUtf8 = true;
    if (end.isLoneCr) line.endsAtLoneCr = true;
    return line;
  }
}

interface Decoded {
  text: string;
  isInvalidUtf8: boolean;
}

/** A line that fits in one chunk: one decode, and a strict one only when U+FFFD shows up. */
function decode(bytes: Buffer): Decoded {
  const text = bytes.toString('utf8');
  // A replacement character may be in the file legitimately; only then pay for a strict decode.
  return { text, isInvalidUtf8: text.includes('\uFFFD') && !isValidUtf8(bytes) };
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictDecoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * A line longer than a chunk, decoded as its chunks arrive, so its bytes are never joined: the
 * text is held once (as pieces) until it is joined once. A character split between chunks waits
 * for the rest of its bytes. `Buffer#toString` keeps ASCII text at one byte per character.
 */
class PendingLine {
  private readonly pieces: string[] = [];
  private carry: Buffer | null = null;
  private isInvalid = false;
  bytes = 0;

  add(bytes: Buffer): void {
    this.bytes += bytes.length;
    const data = this.carry ? Buffer.concat([this.carry, bytes]) : bytes;
    const cut = completeCharacters(data);
    this.carry = cut < data.length ? Buffer.from(data.subarray(cut)) : null;
    this.decode(data.subarray(0, cut));
  }

  close(tail: Buffer): Decoded {
    this.decode(this.carry ? Buffer.concat([this.carry, tail]) : tail);
    this.carry = null;
    return { text: this.pieces.join(''), isInvalidUtf8: this.isInvalid };
  }

  private decode(bytes: Buffer): void {
    const piece = decode(bytes);
    this.pieces.push(piece.text);
    if (piece.isInvalidUtf8) this.isInvalid = true;
  }
}

/** Length of the longest prefix of `bytes` that does not end inside a UTF-8 sequence. */
function completeCharacters(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 4); i--) {
    const b = bytes[i]!;
    if (b < 0x80) return bytes.length;
    if (b >= 0xc0) {
      const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return i + size > bytes.length ? i : bytes.length;
    }
  }
  return bytes.length;
}
