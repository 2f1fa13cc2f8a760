/**
 * A rollout file on disk as batches of records, streamed: JSONL in slices of a few hundred lines
 * (each slice's parsed records die young), a `.json` document whole (it is one value).
 */
import { readFile } from 'node:fs/promises';
import type { Diagnostic, SourceRecord } from '../../core/model';
import { readLine, readText } from '../../core/reader';
import type { RecordBatch } from '../../scoring/trend/summariseRecords';
import { readFileLines, type FileLine } from '../fileLines';

const SLICE = 256;

function batchOf(lines: readonly FileLine[]): RecordBatch {
  const records: SourceRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const line of lines) {
    const result = readLine(line);
    if (result.kind === 'record') {
      records.push(result.record);
      if (result.diagnostic) diagnostics.push(result.diagnostic);
    } else if (result.kind === 'bad') diagnostics.push(result.diagnostic);
  }
  return { records, diagnostics };
}

/** Batches of `path`'s records; `onBytes` hears how far into the file reading has come. */
export async function* fileBatches(path: string, onBytes?: (bytes: number) => void): AsyncGenerator<RecordBatch> {
  if (/\.json$/i.test(path)) {
    const text = await readFile(path, 'utf8');
    yield readText(text, path);
    onBytes?.(Buffer.byteLength(text));
    return;
  }
  for await (const lines of readFileLines(path)) {
    for (let i = 0; i < lines.length; i += SLICE) yield batchOf(lines.slice(i, i + SLICE));
    onBytes?.(lines[lines.length - 1]?.byteEnd ?? 0);
  }
}
