/**
 * A rollout file on disk as batches of records, streamed: JSONL in slices of a few hundred lines
 * (each slice's parsed records die young), a `.json` document whole (it is one value).
 */
import { readFile } from 'node:fs/promises';
import { readLines, readText } from '../../core/reader';
import type { RecordBatch } from './summariseRecords';
import { inputKindOf, readInputLines } from '../inputs/inputFile';

const SLICE = 256;

/** Batches of `path`'s records; `onBytes` hears how far into the file reading has come. */
export async function* fileBatches(path: string, onBytes?: (bytes: number) => void): AsyncGenerator<RecordBatch> {
  // A binary file is refused here with its one message (the run names it and goes on).
  const kind = await inputKindOf(path);
  if (kind === 'json') {
    const text = await readFile(path, 'utf8');
    yield readText(text, path);
    onBytes?.(Buffer.byteLength(text));
    return;
  }
  for await (const lines of readInputLines(path, kind)) {
    for (let i = 0; i < lines.length; i += SLICE) yield readLines(lines.slice(i, i + SLICE));
    onBytes?.(lines[lines.length - 1]?.byteEnd ?? 0);
  }
}
