/**
 * An input file's lines whatever its kind: JSON Lines streamed from disk (`readFileLines`), or
 * the rows of a parquet file in batches, each row a line of JSON. A `.json` document is not
 * lines: callers read it whole (`readDocument`).
 */
import type { FileLine } from '../../core/read/byteLines';
import { readFileLines, type ReadLinesOptions } from '../analysis/fileLines';
import { InputFile, type InputKind } from './inputFile';
import { parquetLineBatches } from './parquetRows';

/**
 * The lines of `path` in batches, read through `options.input` when given (left open), else
 * through a descriptor opened and closed here; `kind` when the caller already knows it.
 */
export async function* readInputLines(path: string, options: ReadLinesOptions & { kind?: InputKind } = {}): AsyncGenerator<FileLine[]> {
  const input = options.input ?? InputFile.open(path);
  try {
    if ((options.kind ?? input.kind()) === 'parquet') {
      yield* parquetLineBatches(input, { ...(options.onChunk ? { onChunk: options.onChunk } : {}), ...(options.keepBytes ? { keepBytes: true } : {}), ...(options.maxLineBytes ? { maxRowChars: options.maxLineBytes } : {}) });
      return;
    }
    yield* readFileLines(path, undefined, { ...options, input });
  } finally {
    if (!options.input) input.close();
  }
}
