/**
 * A file's bytes as lines, chunk by chunk, so a large dump is never one string (the Node side
 * reads the chunks: `scoring/analysis/fileLines.ts`). Each line keeps its byte range, so `filter`
 * and the panel's export can copy the original bytes of the lines they keep. Lines, the BOM, the
 * length limit and terminators are those of `jsonLines.ts`, so line numbers agree with the editor's.
 *
 * Linear in the file size however long a line is: the chunks of an unfinished line are decoded as
 * they arrive and joined once, when its end arrives (re-copying the pending bytes on every read
 * made a 200 MB line cost minutes and gigabytes).
 */
import { LineBreakScanner } from './lineBreaks';
import { MAX_LINE_BYTES, terminatorLength, withoutBom, type TextLine } from './jsonLines';

/** A line of a file's bytes, with where its bytes are. */
export interface FileLine extends TextLine {
  byteStart: number;
  /** Byte offset just past the line's terminator (or the end of the file). */
  byteEnd: number;
  /** The line's bytes, terminator included, when they were asked for (and the line is not over the length limit). */
  bytes?: Uint8Array;
  /**
   * Read with `textOnDemand` and held within one chunk: `raw` is empty (its text is `lineText`),
   * and `bytes` is a view of the chunk, valid as long as the chunk's bytes are.
   */
  textOnDemand?: true;
}

/** What a splitter gives each line. */
export interface SplitOptions {
  /** Give each line its bytes, so it can be copied exactly (invalid UTF-8, CRLF and all). */
  keepBytes?: boolean;
  /**
   * With `keepBytes`: a line held within one chunk is not decoded and its bytes are not copied
   * (`FileLine.textOnDemand`), for a caller that needs the text of few lines and uses each line
   * before the chunk's bytes change (`filter`'s second read copies the kept lines' bytes).
   */
  textOnDemand?: boolean;
  /** Lines longer than this are not read (`TextLine.tooLongBytes`); default `MAX_LINE_BYTES`. */
  maxLineBytes?: number;
  /**
   * Joins a kept line's parts into one copy of its bytes; by default a new array. Node's reader
   * passes `Buffer.concat`, whose small copies come from a pool (a new zeroed array per line made
   * `score`'s reading a quarter slower).
   */
  join?: (parts: Uint8Array[]) => Uint8Array;
}

const LF = 10;
// The BOM is kept in every decode: only the file's own first one is dropped, and only from the text.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Line terminators by length: none, `\n`, `\r\n`; and (index 3) a lone `\r`. */
const TERMINATORS = [new Uint8Array(0), new Uint8Array([10]), new Uint8Array([13, 10]), new Uint8Array([13])];

/** Bytes split at once by `splitByteLines`: its lines are made a slice at a time, not all together. */
const SLICE_BYTES = 1024 * 1024;

/**
 * Every line of `bytes` held whole (a file's, from byte 0, or a run of its lines starting at `at`).
 * The bytes are not changed while the lines are used, so `textOnDemand` lines stay valid.
 */
export function* splitByteLines(bytes: Uint8Array, options: SplitOptions = {}, at = { byte: 0, line: 1 }): Generator<FileLine> {
  const splitter = new LineSplitter(at, options);
  for (let start = 0; start < bytes.length; start += SLICE_BYTES) yield* splitter.push(bytes.subarray(start, start + SLICE_BYTES));
  yield* splitter.end();
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
  private readonly join: (parts: Uint8Array[]) => Uint8Array;

  /** `at` is where the first chunk starts in the file (a BOM is only stripped at byte 0). */
  constructor(at: { byte: number; line: number } = { byte: 0, line: 1 }, options: SplitOptions = {}) {
    this.lineStart = at.byte;
    this.line = at.line;
    this.keepBytes = options.keepBytes === true;
    this.textOnDemand = this.keepBytes && options.textOnDemand === true;
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.join = options.join ?? concat;
  }

  /** The lines that end in `chunk` (and the chunks before it). */
  push(chunk: Uint8Array): FileLine[] {
    const batch: FileLine[] = [];
    let start = 0;
    if (this.isCrPending) {
      this.isCrPending = false;
      const isCrLf = chunk[0] === LF;
      batch.push(this.finish(chunk, { start: 0, end: 0, terminator: isCrLf ? 2 : 1, isLoneCr: !isCrLf }));
      start = isCrLf ? 1 : 0;
    }
    const breaks = new LineBreakScanner(chunk);
    for (let at = breaks.find(start); at; at = breaks.find(start)) {
      if (at.isLoneCr && at.end === chunk.length - 1) {
        this.continueLine(chunk.subarray(start, at.end));
        this.isCrPending = true;
        return batch;
      }
      batch.push(this.finish(chunk, { start, end: at.end, terminator: at.next - at.end, isLoneCr: at.isLoneCr }));
      start = at.next;
    }
    if (start < chunk.length) this.continueLine(chunk.subarray(start));
    return batch;
  }

  /** The last line, at the end of the file: ended by a lone `\r`, or not terminated at all. */
  end(): FileLine[] {
    const empty = new Uint8Array(0);
    if (this.isCrPending) {
      this.isCrPending = false;
      return [this.finish(empty, { start: 0, end: 0, terminator: 1, isLoneCr: true })];
    }
    return this.pending ? [this.finish(empty, { start: 0, end: 0, terminator: 0, isLoneCr: false })] : [];
  }

  private continueLine(bytes: Uint8Array): void {
    this.pending ??= new PendingLine(this.keepBytes, this.maxLineBytes);
    this.pending.add(bytes);
  }

  /** The line that ends at `chunk[end]`: its last bytes are `chunk[start, end)`, its terminator is in `chunk` unless a `\r` was pending. */
  private finish(chunk: Uint8Array, end: { start: number; end: number; terminator: number; isLoneCr: boolean }): FileLine {
    const pending = this.pending;
    this.pending = null;
    const byteStart = this.lineStart;
    const length = (pending?.bytes ?? 0) + end.end - end.start;
    const byteEnd = byteStart + length + end.terminator;
    this.lineStart = byteEnd;
    if (length > this.maxLineBytes) {
      // Not one string: past V8's limit it cannot be, and far before it one line must not sink the file.
      return { line: this.line++, raw: '', terminated: end.terminator > 0, byteStart, byteEnd, tooLongBytes: length };
    }
    if (this.textOnDemand && !pending) {
      // Within one chunk, the terminator's bytes follow the line's (a `\r` at a chunk's end made the line pending).
      const line: FileLine = { line: this.line++, raw: '', terminated: end.terminator > 0, byteStart, byteEnd, bytes: chunk.subarray(end.start, end.end + end.terminator), textOnDemand: true };
      if (end.isLoneCr) line.endsAtLoneCr = true;
      return line;
    }
    const tail = chunk.subarray(end.start, end.end);
    const decoded = pending ? pending.close(tail) : decode(tail);
    // The BOM is part of line 1's bytes (filter copies them) but not of its text.
    const raw = byteStart === 0 ? withoutBom(decoded.text) : decoded.text;
    const line: FileLine = { line: this.line++, raw, terminated: end.terminator > 0, byteStart, byteEnd };
    if (decoded.isInvalidUtf8) line.invalidUtf8 = true;
    if (end.isLoneCr) line.endsAtLoneCr = true;
    if (this.keepBytes) line.bytes = this.join([...(pending?.byteParts ?? []), tail, TERMINATORS[end.terminator === 1 && end.isLoneCr ? 3 : end.terminator]!]);
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
  const decoded = decode(bytes.subarray(0, bytes.length - terminatorLength(bytes)));
  const raw = line.byteStart === 0 ? withoutBom(decoded.text) : decoded.text;
  return { raw, invalidUtf8: decoded.isInvalidUtf8 };
}

interface Decoded {
  text: string;
  isInvalidUtf8: boolean;
}

/** A line that fits in one chunk: one decode, and a strict one only when U+FFFD shows up. */
function decode(bytes: Uint8Array): Decoded {
  const text = decoder.decode(bytes);
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

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * A line longer than a chunk, decoded as its chunks arrive, so its bytes are never joined: the
 * text is held once (as pieces) until it is joined once. A character split between chunks waits
 * for the rest of its bytes.
 */
class PendingLine {
  private readonly pieces: string[] = [];
  private carry: Uint8Array | null = null;
  private isInvalid = false;
  bytes = 0;
  /** Copies of the bytes so far, when they are kept. */
  readonly byteParts: Uint8Array[] = [];

  constructor(private readonly keepBytes: boolean, private readonly maxBytes: number) {}

  add(bytes: Uint8Array): void {
    this.bytes += bytes.length;
    if (this.bytes > this.maxBytes) {
      // Over the limit: only counted from here on; what was held is let go.
      this.pieces.length = 0;
      this.byteParts.length = 0;
      this.carry = null;
      return;
    }
    // Copied: the chunk's bytes are read over by the next read.
    if (this.keepBytes) this.byteParts.push(new Uint8Array(bytes));
    const data = this.carry ? concat([this.carry, bytes]) : bytes;
    const cut = completeCharacters(data);
    this.carry = cut < data.length ? new Uint8Array(data.subarray(cut)) : null;
    this.decode(data.subarray(0, cut));
  }

  close(tail: Uint8Array): Decoded {
    this.decode(this.carry ? concat([this.carry, tail]) : tail);
    this.carry = null;
    return { text: this.pieces.join(''), isInvalidUtf8: this.isInvalid };
  }

  private decode(bytes: Uint8Array): void {
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
