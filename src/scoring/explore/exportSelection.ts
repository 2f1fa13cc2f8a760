/**
 * Export of a selection of rollouts: the original bytes of their lines, read from the file the
 * analysis read (a grouped line trimmed to its selected responses, exactly as `filter` trims to
 * kept ones; a JSON array's selected elements one per line, from their own text; a parquet file's
 * selected rows as lines of JSON, each the record the analysis read). Token-id traces are counted
 * with the tokenizer the analysis used. Written through the atomic writer, which refuses an output
 * that is the input under any name.
 *
 * The file must be the one analysed: when the analysis says which (its identity and the hash of
 * what it read), a file with another size, time or inode is refused before reading, and every
 * byte read is hashed and compared before the export is kept, as `filter` compares its two reads;
 * a line that no longer holds the rollouts the analysis found there stops the export too. Nothing
 * is written then.
 */
import { resolve } from 'node:path';
import { keptElementText, keptLineBytes, lineBytesOf, rolloutsOfRecord } from '../../core/lines/keptLines';
import { readLine, readText } from '../../core/read/reader';
import type { FieldRole } from '../../core/profSettings';
import type { AdaptContext } from '../../core/formats/trainers';
import { selectionLines, type RolloutPlaces, type SelectedOnLine } from '../../core/explore/selection';
import { recordLocation } from '../../core/presentation/locationWords';
import { readDocument } from '../analysis/analysePath';
import { InputFile, InputFileError } from '../inputs/inputFile';
import { readInputLines } from '../inputs/inputLines';
import { checkAnalysed, ReadHash, type AnalysedFile } from '../inputs/analysedFile';
import { checkOutputs, openAtomicWriter, type AtomicWriter } from '../output/outputFiles';

type Fields = Partial<Record<FieldRole, string>>;

export interface ExportSelectionJob {
  /** The file the analysis read. */
  input: string;
  output: string;
  /** Where each rollout of the analysis is (the explorer's table has these columns). */
  places: RolloutPlaces;
  /** The selected rollout ids. */
  ids: Iterable<number>;
  /** The analysis's field mapping (the arrays it read are the ones trimmed). */
  fields?: Fields;
  /** Which file the analysis read, and the hash of its bytes (absent: only the rollout counts are checked). */
  analysed?: AnalysedFile;
  /** What the analysis gave the adapters (the tokenizer of token-id traces). */
  context?: AdaptContext;
}

/** What was written. */
export interface ExportedSelection {
  /** Lines written. */
  lines: number;
  /** Rollouts those lines hold of the selection. */
  rollouts: number;
}

const NOTHING = 'nothing was exported';

/** Writes the selected rollouts' lines to `job.output`; refuses an output that is the input. */
export async function exportSelection(job: ExportSelectionJob): Promise<ExportedSelection> {
  const selection = selectionLines(job.places, job.ids);
  if (selection.selected === 0) throw new Error('no rollout is selected: nothing to export');
  const path = resolve(job.input);
  await checkOutputs([{ label: 'the input', path }], [{ label: 'the export', path: resolve(job.output) }]);
  const input = InputFile.open(path);
  try {
    if (job.analysed) checkAnalysed(input, job.analysed, NOTHING);
    const writer = await openAtomicWriter(resolve(job.output));
    try {
      const read = new ReadHash();
      const how = { fields: job.fields ?? {}, context: job.context ?? {}, onChunk: read.onChunk };
      const lines = input.kind() === 'json' ? await writeElements(input, selection.items, writer, how) : await writeLines(input, selection.lines, writer, how);
      if (job.analysed) checkAnalysed(input, job.analysed, NOTHING, read.digest());
      await writer.commit();
      return { lines, rollouts: selection.selected };
    } catch (error) {
      await writer.abort();
      throw error;
    }
  } finally {
    input.close();
  }
}

interface ReadAs {
  fields: Fields;
  context: AdaptContext;
  onChunk: (bytes: Uint8Array) => void;
}

function changed(path: string, place: { line: number; item?: number }, expected: number, found: number): InputFileError {
  return new InputFileError(`${path} changed since it was analysed: ${recordLocation(place)} holds ${found} rollout${found === 1 ? '' : 's'}, the analysis found ${expected}; ${NOTHING} (analyse the file again first)`);
}

/** JSON Lines, token-id traces and parquet rows (each row a line of JSON): the whole file is read, so all of it is hashed. */
async function writeLines(input: InputFile, wanted: Map<number, SelectedOnLine[]>, out: AtomicWriter, how: ReadAs): Promise<number> {
  let written = 0;
  let left = wanted.size;
  for await (const lines of readInputLines(input.path, { input, keepBytes: true, onChunk: how.onChunk })) {
    for (const line of lines) {
      const rollouts = wanted.get(line.line);
      if (!rollouts) continue;
      left--;
      const read = line.bytes ? readLine(line) : null;
      if (read?.kind === 'record') await how.context.decoder?.prepare?.([read.record]);
      const found = read?.kind === 'record' ? rolloutsOfRecord(read.record, how.fields, how.context) : 0;
      if (found !== rollouts.length || !line.bytes) throw changed(input.path, line, rollouts.length, found);
      const bytes = keptLineBytes(lineBytesOf(line, line.bytes), rollouts, how.fields);
      if (bytes === null) continue;
      await out.write(bytes);
      written++;
    }
  }
  if (left > 0) throw new InputFileError(`${input.path} changed since it was analysed: it has fewer lines than the selection names; ${NOTHING}`);
  return written;
}

async function writeElements(input: InputFile, wanted: Map<number, SelectedOnLine[]>, out: AtomicWriter, how: ReadAs): Promise<number> {
  let written = 0;
  const { records } = readText(readDocument(input, how.onChunk), input.path);
  await how.context.decoder?.prepare?.(records);
  for (const record of records) {
    const rollouts = record.item === undefined ? undefined : wanted.get(record.item);
    if (!rollouts) continue;
    const found = rolloutsOfRecord(record, how.fields, how.context);
    if (found !== rollouts.length) throw changed(input.path, record, rollouts.length, found);
    const text = keptElementText(record.raw, rollouts, how.fields);
    if (text === null) continue;
    await out.write(text + '\n');
    written++;
  }
  return written;
}
