/**
 * Parquet files as rollout records: TRL's GRPOTrainer logs its completions as
 * `completions/completions_{step:05d}.parquet` (written by pandas with pyarrow, Snappy-compressed).
 * Read with hyparquet (pure JavaScript, loaded on first use); each row becomes one record whose
 * text is the row as a JSON object, so the rest of the pipeline (the adapters, `filter`, `score`)
 * treats it as a line of JSON Lines. 64-bit integers become numbers, NaN (a reward function's None)
 * becomes null.
 */
import type { FileLine } from '../analysis/fileLines';
import type { InputFile } from './inputFile';
import { errorText } from '../../core/errorText';

/** The largest parquet file read (it is read whole; TRL writes one generation batch per file). */
export const MAX_PARQUET_BYTES = 512 * 1024 * 1024;

/** A row value as JSON can hold it. */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plain(v);
    return out;
  }
  return value;
}

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

/**
 * The rows of a parquet file as lines of JSON text, numbered from 1 in the file's row order.
 * `onChunk` hears the file's bytes (to hash what was read); `keepBytes` gives each line its text
 * as bytes with a line break, which is what `filter` and `score` write for a row.
 */
export async function parquetLines(input: InputFile, options: { onChunk?: (bytes: Uint8Array) => void; keepBytes?: boolean } = {}): Promise<FileLine[]> {
  const { parquetReadObjects } = await import('hyparquet');
  const bytes = readWhole(input);
  options.onChunk?.(bytes);
  let rows: Record<string, unknown>[];
  try {
    rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer });
  } catch (error) {
    const reason = errorText(error);
    throw new Error(`${input.path} could not be read as parquet: ${reason} (PROF Lens reads uncompressed and Snappy-compressed parquet, as pandas writes it by default)`);
  }
  return rows.map((row, i): FileLine => {
    const raw = JSON.stringify(plain(row));
    return { line: i + 1, raw, terminated: true, byteStart: 0, byteEnd: 0, ...(options.keepBytes ? { bytes: Buffer.from(`${raw}\n`) } : {}) };
  });
}
