/**
 * The Node side of the one line reader: a file streamed from disk in chunks, each chunk split by
 * `core/read/byteLines.ts` (lines, byte ranges, the BOM and the length limit are defined there).
 */
import { LineSplitter, type FileLine, type SplitOptions } from '../../core/read/byteLines';
import { InputFile } from '../inputs/inputFile';

/** How a file is read. */
export interface ReadLinesOptions extends SplitOptions {
  /** Read through this descriptor (left open) rather than opening the path. */
  input?: InputFile;
  /** Hears every chunk read, in order (to hash what was read). */
  onChunk?: (bytes: Uint8Array) => void;
}

/**
 * Reads are 256 KB. A read's lines are decoded together and live until the caller has used them:
 * with 1 MB reads they outlived the young generation's collections, which copied them to the old
 * one (63 MB of a 50 MB dump's `report`, a fifth of its time); at 256 KB about 13 MB are.
 */
const CHUNK = 256 * 1024;

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
    const splitter = new LineSplitter({ byte: 0, line: 1 }, { ...options, join: (parts) => Buffer.concat(parts) });
    let position = 0;
    // One buffer for every read: the splitter decodes what it is given before it returns (an
    // unfinished line keeps its text and at most three bytes of a split character, copied), so
    // nothing refers to the bytes of the last read but `textOnDemand` lines, used before the next.
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
