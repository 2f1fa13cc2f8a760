/**
 * Streaming a file from disk as lines, in chunks, so a large dump is never one string. Each line
 * keeps its byte range, so `filter` can copy the original bytes of the lines it keeps. Lines end
 * where VS Code ends them (`\r\n`, `\n`, lone `\r`), so line numbers agree with the editor's.
 *
 * Linear in the file size however long a line is: the chunks of an unfinished line are collected
 * and joined once, when its end arrives (re-copying the pending bytes on every read made a 200 MB
 * line cost minutes and gigabytes).
 */
import { LineBreakScanner } from '../../core/read/lineBreaks';
import { MAX_LINE_BYTES, type TextLine } from '../../core/read/reader';
import { InputFile } from '../inputs/inputFile';

export interface FileLine extends TextLine {
  byteStart: number;
  /** Byte offset just past the line's terminator (or the end of the file). */
  byteEnd: number;
  /** The line's bytes, terminator included, when they were asked for (and the line is not over the length limit). */
  bytes?: Buffer;
  /**
   * Read with `textOnDemand` and held within one read: `raw` is empty (its text is `lineText`),
   * and `bytes` is a view of the read buffer, valid until the next batch is asked for.
   */
  textOnDemand?: true;
}

/** How a file is read. */
export interface ReadLinesOptions {
  /** Read through this descriptor (left open) rather than opening the path. */
  input?: InputFile;
  /** Give each line its bytes, so it can be copied exactly (invalid UTF-8, CRLF and all). */
  keepBytes?: boolean;
  /**
   * With `keepBytes`: a line held within one read is not decoded and its bytes are not copied
   * (`FileLine.textOnDemand`), for a caller that needs the text of few lines and uses each line
   * before asking for the next batch (`filter`'s second read copies the kept lines' bytes).
   */
  textOnDemand?: boolean;
  /** Hears every chunk read, in order (to hash what was read). */
  onChunk?: (bytes: Uint8Array) => void;
  /** Lines longer than this are not read (`TextLine.tooLongBytes`); default `MAX_LINE_BYTES`. */
  maxLineBytes?: number;
}

/**
 * Reads are 256 KB. A read's lines are decoded together and live until the caller has used them:
 * with 1 MB reads they outlived the young generation's collections, which copied them to the old
 * one (63 MB of a 50 MB dump's `report`, a fifth of its time); at 256 KB about 13 MB are.
 */
const CHUNK = 256 * 1024;
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
export async function* readFileLines(path: string, chunkBytes = CHUNK, options: ReadLinesOptions = {}): AsyncGenerator<FileLine[]> {
  // Only a regular file is read: `/dev/zero` never ends and a FIFO blocks (refused by type, not by running out of memory).
  const input = options.input ?? InputFile.open(path);
  try {
    const splitter = new LineSplitter({ byte: 0, line: 1 }, { keepBytes: options.keepBytes === true, textOnDemand: options.textOnDemand === true, maxLineBytes: options.maxLineBytes ?? MAX_LINE_BYTES });
    let position = 0;
    // One buffer for every read: the splitter decodes what it is given before it returns (an
    // unfinished line keeps its text and at most three bytes of a split character, copied), so
    // nothing refers to the bytes of the last read.
    const chunk = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const bytesRead = input.read(chunk, 0, chunkBytes, position);
      position += bytesRead;
      if (bytesRead > 0) options.onChunk?.(chunk.subarray(0, bytesRead));
      const batch = bytesRead === 0 ? splitter.end() : splitter.push(chunk.subarray(0, bytesRead));
      if (batch.length) yield batch;
      if (bytesRead === 0) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    if (!options.input) input.close();
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

  private readonly keepBytes: boolean;
  private readonly textOnDemand: boolean;
  private readonly maxLineBytes: number;

  /** `at` is where the first chunk starts in the file (a BOM is only stripped at byte 0). */
  constructor(at: { byte: number; line: number } = { byte: 0, line: 1 }, options: { keepBytes?: boolean; textOnDemand?: boolean; maxLineBytes?: number } = {}) {
    this.lineStart = at.byte;
    this.line = at.line;
    this.keepBytes = options.keepBytes === true;
    this.textOnDemand = this.keepBytes && options.textOnDemand === true;
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
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
    this.pending ??= new PendingLine(this.keepBytes, this.maxLineBytes);
    this.pending.add(bytes);
  }

  private finish(tail: Buffer, end: { terminator: number; isLoneCr: boolean }): FileLine {
    const pending = this.pending;
    this.pending = null;
    const byteStart = this.lineStart;
    const length = (pending?.bytes ?? 0) + tail.length;
    const byteEnd = byteStart + length + end.terminator;
    this.lineStart = byteEnd;
    if (length > this.maxLineBytes) {
      // Not one string: past V8's limit it cannot be, and far before it one line must not sink the file.
      return { line: this.line++, raw: '', terminated: end.terminator > 0, byteStart, byteEnd, tooLongBytes: length };
    }
    if (this.textOnDemand && !pending) {
      // Within one read, the terminator's bytes follow the line's in the same buffer (a `\r` at a
      // read's end made the line pending).
      const line: FileLine = { line: this.line++, raw: '', terminated: end.terminator > 0, byteStart, byteEnd, bytes: Buffer.from(tail.buffer, tail.byteOffset, tail.length + end.terminator), textOnDemand: true };
      if (end.isLoneCr) line.endsAtLoneCr = true;
      return line;
    }
    const decoded = pending ? pending.close(tail) : decode(tail);
    // The BOM is part of line 1's bytes (filter copies them) but not of its text.
    const raw = byteStart === 0 && decoded.text.charCodeAt(0) === 0xfeff ? decoded.text.slice(1) : decoded.text;
    const line: FileLine = { line: this.line++, raw, terminated: end.terminator > 0, byteStart, byteEnd };
    if (decoded.isInvalidUtf8) line.invalidUtf8 = true;
    if (end.isLoneCr) line.endsAtLoneCr = true;
    if (this.keepBytes) line.bytes = Buffer.concat([...(pending?.byteParts ?? []), tail, TERMINATORS[end.terminator === 1 && end.isLoneCr ? 3 : end.terminator]!]);
    return line;
  }
}

/**
 * The text of a line read with `textOnDemand`, as it would have been decoded when read (a BOM
 * at the file's start left out), and whether its bytes were not valid UTF-8.
 */
export function lineText(line: FileLine): { raw: string; invalidUtf8: boolean } {
  if (!line.textOnDemand || !line.bytes) return { raw: line.raw, invalidUtf8: line.invalidUtf8 === true };
  const bytes = line.bytes;
  const terminator = !line.terminated ? 0 : bytes.length >= 2 && bytes[bytes.length - 2] === 13 && bytes[bytes.length - 1] === LF ? 2 : 1;
  const decoded = decode(bytes.subarray(0, bytes.length - terminator));
  const raw = line.byteStart === 0 && decoded.text.charCodeAt(0) === 0xfeff ? decoded.text.slice(1) : decoded.text;
  return { raw, invalidUtf8: decoded.isInvalidUtf8 };
}

/** Line terminators by length: none, `\n`, `\r\n`; and (index 3) a lone `\r`. */
const TERMINATORS = [Buffer.alloc(0), Buffer.from('\n'), Buffer.from('\r\n'), Buffer.from('\r')];

interface Decoded {
  text: string;
  isInvalidUtf8: boolean;
}

/** A line that fits in one chunk: one decode, and a strict one only when U+FFFD shows up. */
function decode(bytes: Buffer): Decoded {
  // UTF-8: without arguments `toString` decodes at once, with no lookup of the encoding (a cold loop
  // over a 50 MB dump's lines: 10–19 ms against 43–55 ms; the whole `report`: no measurable change).
  const text = bytes.toString();
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
  /** Copies of the bytes so far, when they are kept. */
  readonly byteParts: Buffer[] = [];

  constructor(private readonly keepBytes: boolean, private readonly maxBytes: number) {}

  add(bytes: Buffer): void {
    this.bytes += bytes.length;
    if (this.bytes > this.maxBytes) {
      // Over the limit: only counted from here on; what was held is let go.
      this.pieces.length = 0;
      this.byteParts.length = 0;
      this.carry = null;
      return;
    }
    if (this.keepBytes) this.byteParts.push(Buffer.from(bytes));
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
