/**
 * A rollout file on disk as batches of records, streamed: JSONL in slices of a few hundred lines
 * (each slice's parsed records die young), a parquet file's rows, a `.json` document whole (it is
 * one value).
 */
import { readLines, readText } from '../../core/read/reader';
import type { RecordBatch } from './summariseRecords';
import { InputFile } from '../inputs/inputFile';
import { readInputLines } from '../inputs/inputLines';
import { readDocument } from '../analysis/analysePath';

const SLICE = 256;

/** Batches of `path`'s records; `onBytes` hears how far into the file reading has come. */
export async function* fileBatches(path: string, onBytes?: (bytes: number) => void): AsyncGenerator<RecordBatch> {
  // Only a regular file is opened; a binary file is refused here with its one message (the run names it and goes on).
  const input = InputFile.open(path);
  try {
    const kind = input.kind();
    if (kind === 'json') {
      yield readText(readDocument(input), path);
      onBytes?.(input.size);
      return;
    }
    for await (const lines of readInputLines(path, { input, kind })) {
      for (let i = 0; i < lines.length; i += SLICE) yield readLines(lines.slice(i, i + SLICE));
      // A parquet file is read whole before its first batch of rows.
      onBytes?.(kind === 'parquet' ? input.size : (lines[lines.length - 1]?.byteEnd ?? 0));
    }
  } finally {
    input.close();
  }
}
