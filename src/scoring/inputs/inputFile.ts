/**
 * What a rollout file on disk is, and its lines whatever it is: JSON Lines stream from disk,
 * parquet (TRL's completions) is read into one line of JSON per row, and a binary file (a
 * `torch.save` `.pt`, Arrow, safetensors) is refused with one message saying what it is and how
 * to convert it — never read as lines.
 */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { BINARY_SNIFF_BYTES, binaryKindOf, binaryMessage } from '../../core/binaryFiles';
import { readFileLines, type FileLine } from '../fileLines';
import { parquetLines } from './parquetRows';

/** The kind of input file. */
export type InputKind = 'lines' | 'json' | 'parquet';

/** A file PROF Lens does not read, with the message that says why and what to do. */
export class UnreadableFileError extends Error {
  override readonly name = 'UnreadableFileError';
}

/** Lines made from parquet rows: their text is the row, not bytes of the file. */
const rowLines = new WeakSet<FileLine>();

/** True for a line made from a parquet row (it has no bytes in the file to copy). */
export function isRowLine(line: FileLine): boolean {
  return rowLines.has(line);
}

async function firstBytes(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const bytes = new Uint8Array(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
    return bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The file's kind; throws an UnreadableFileError for a binary file. */
export async function inputKindOf(path: string): Promise<InputKind> {
  const bytes = await firstBytes(path);
  const text = String.fromCharCode(...bytes.subarray(0, 4));
  if (text === 'PAR1' || /\.parquet$/i.test(path)) return 'parquet';
  const binary = binaryKindOf(bytes, basename(path));
  if (binary !== null) throw new UnreadableFileError(binaryMessage(binary, path));
  return /\.json$/i.test(path) ? 'json' : 'lines';
}

/**
 * The file's lines in batches: JSON Lines streamed from disk, or every row of a parquet file in
 * one batch. A `.json` document is not lines: callers read it whole, as before.
 */
export async function* readInputLines(path: string, kind?: InputKind): AsyncGenerator<FileLine[]> {
  if ((kind ?? (await inputKindOf(path))) === 'parquet') {
    const lines = await parquetLines(path);
    for (const line of lines) rowLines.add(line);
    yield lines;
    return;
  }
  yield* readFileLines(path);
}
