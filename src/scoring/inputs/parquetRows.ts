/**
 * Parquet files as rollout records: TRL's GRPOTrainer logs its completions as
 * `completions/completions_{step:05d}.parquet` (written by pandas with pyarrow, Snappy-compressed).
 * Read with hyparquet (pure JavaScript, loaded on first use), one row group at a time; each row
 * becomes one line of JSON text (parquetCells.ts), under the limits a JSON Lines line has, so the
 * rest of the pipeline (the reader, the adapters, `filter`, `score`) treats it as a line. A row
 * that cannot be one (a cell over the size limit, JSON nested too deep) is a diagnostic naming
 * its row; the other rows are read. Rows come in batches of bounded text: a file whose dictionary
 * repeats one long value in every row never holds all its rows' texts at once.
 */
import type { FileLine } from '../../core/read/byteLines';
import type { InputFile } from './inputFile';
import { errorText } from '../../core/errorText';
import { MAX_LINE_BYTES } from '../../core/read/jsonLines';
import { cellParsers, megabytes, rowText, sizeText, TextCache } from './parquetCells';

/** The largest parquet file read (it is read whole; TRL writes one generation batch per file). */
export const MAX_PARQUET_BYTES = 512 * 1024 * 1024;
/**
 * The most text a parquet file's rows may come to, as a multiple of the file's size (and at least
 * MIN_TEXT_BUDGET): a dictionary lets a 100 KB file repeat a 1 MB value in 6,000 rows, 6 GB of
 * rows to analyse. Pandas' files of rollouts come to a few times their size.
 */
const TEXT_PER_FILE_BYTE = 64;
const MIN_TEXT_BUDGET = 128 * 1024 * 1024;
/** A batch of rows ends once its texts pass this many characters (or rows). */
const BATCH_CHARS = 16 * 1024 * 1024;
const BATCH_ROWS = 2048;

function readWhole(input: InputFile): Uint8Array {
  const size = input.size;
  if (size > MAX_PARQUET_BYTES) throw new Error(`${input.path} is ${(size / 1048576).toFixed(0)} MB: parquet files are read whole, and PROF Lens reads up to ${MAX_PARQUET_BYTES / 1048576} MB of one`);
  const bytes = new Uint8Array(size);
  let done = 0;
  while (done < size) {
    const read = input.read(bytes, done, size - done, done);
    if (read === 0) break;
    done += read;
  }
  return bytes.subarray(0, done);
}

function unreadable(path: string, error: unknown): Error {
  return new Error(`${path} could not be read as parquet: ${errorText(error)} (PROF Lens reads uncompressed and Snappy-compressed parquet, as pandas writes it by default)`);
}

interface ParquetLineOptions {
  /** Hears the file's bytes (to hash what was read). */
  onChunk?: (bytes: Uint8Array) => void;
  /** Gives each line its text as bytes with a line break: what `filter` and `score` write for a row. */
  keepBytes?: boolean;
  /** Rows whose text would be longer are not read (a diagnostic names them); default `MAX_LINE_BYTES`. */
  maxRowChars?: number;
}

/**
 * The rows of a parquet file as lines of JSON text, numbered from 1 in the file's row order, in
 * batches. A row that is not read is a line with `unreadable` set, which the reader turns into a
 * diagnostic naming the row.
 */
export async function* parquetLineBatches(input: InputFile, options: ParquetLineOptions = {}): AsyncGenerator<FileLine[]> {
  const { parquetMetadata, parquetReadObjects } = await import('hyparquet');
  const maxChars = options.maxRowChars ?? MAX_LINE_BYTES;
  const parsers = cellParsers(maxChars);
  const bytes = readWhole(input);
  options.onChunk?.(bytes);
  // The read buffer itself when the file was read whole into it (a copy of a 500 MB file is 500 MB more).
  const whole = bytes.byteOffset === 0 && bytes.length === bytes.buffer.byteLength;
  const file = (whole ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)) as ArrayBuffer;
  let metadata: ReturnType<typeof parquetMetadata>;
  try {
    metadata = parquetMetadata(file, { parsers });
  } catch (error) {
    throw unreadable(input.path, error);
  }
  const cache = new TextCache();
  const budget = Math.max(MIN_TEXT_BUDGET, TEXT_PER_FILE_BYTE * bytes.length);
  let total = 0;
  let rowStart = 0;
  let batch: FileLine[] = [];
  let batchChars = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({ file, metadata, rowStart, rowEnd, parsers });
    } catch (error) {
      throw unreadable(input.path, error);
    }
    for (let i = 0; i < rows.length; i++) {
      const line = rowStart + i + 1;
      const made = rowText(rows[i]!, cache, maxChars);
      rows[i] = {};
      if ('text' in made && (total += made.text.length) > budget) {
        batch.push({ line, raw: '', terminated: true, byteStart: 0, byteEnd: 0, unreadable: overBudget({ line, rows: Number(metadata.num_rows), fileBytes: bytes.length, budget }) });
        yield batch;
        return;
      }
      if ('problem' in made) batch.push({ line, raw: '', terminated: true, byteStart: 0, byteEnd: 0, unreadable: `row ${line}: ${made.problem}` });
      else {
        batch.push({ line, raw: made.text, terminated: true, byteStart: 0, byteEnd: 0, ...(options.keepBytes ? { bytes: Buffer.from(`${made.text}\n`) } : {}) });
        batchChars += made.text.length;
      }
      if (batchChars >= BATCH_CHARS || batch.length >= BATCH_ROWS) {
        yield batch;
        batch = [];
        batchChars = 0;
      }
    }
    rowStart = rowEnd;
  }
  if (batch.length > 0) yield batch;
}

function overBudget(at: { line: number; rows: number; fileBytes: number; budget: number }): string {
  const rows = at.line === at.rows ? `row ${at.line} is` : `rows ${at.line}–${at.rows.toLocaleString('en-US')} are`;
  return `${rows} not read: the rows of this ${sizeText(at.fileBytes)} file come to more than ${megabytes(at.budget, 0)} of text `
    + `(the limit is ${TEXT_PER_FILE_BYTE} times the file's size, at least ${megabytes(MIN_TEXT_BUDGET, 0)}); a long value its dictionary repeats in every row is the usual cause`;
}

/** Every row of a parquet file as lines (for a caller that needs them together). */
export async function parquetLines(input: InputFile, options: ParquetLineOptions = {}): Promise<FileLine[]> {
  const lines: FileLine[] = [];
  for await (const batch of parquetLineBatches(input, options)) lines.push(...batch);
  return lines;
}
