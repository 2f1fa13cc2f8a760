/**
 * Export of a selection of rollouts: the original bytes of their lines, read from the file the
 * analysis read (a grouped line trimmed to its selected responses, exactly as `filter` trims to
 * kept ones; a JSON array's selected elements one per line, from their own text). Written through
 * the atomic writer, which refuses an output that is the input under any name. A line that no
 * longer holds the rollouts the analysis found there (the file changed since) stops the export:
 * nothing is written.
 */
import { resolve } from 'node:path';
import { keptElementText, keptLineBytes, rolloutsOfRecord } from '../../core/keptLines';
import { readLine, readText } from '../../core/reader';
import type { FieldRole } from '../../core/profSettings';
import { selectionLines, type RolloutPlaces, type SelectedOnLine } from '../../core/explore/selection';
import { recordLocation } from '../../core/presentation/locationWords';
import { readFileLines } from '../analysis/fileLines';
import { readDocument } from '../analysis/analysePath';
import { InputFile, InputFileError } from '../inputs/inputFile';
import { checkOutputs, openAtomicWriter, type AtomicWriter } from '../output/outputFiles';

export interface ExportSelectionJob {
  /** The file the analysis read. */
  input: string;
  output: string;
  /** Where each rollout of the analysis is (the explorer's table has these columns). */
  places: RolloutPlaces;
  /** The selected rollout ids. */
  ids: Iterable<number>;
  /** The analysis's field mapping (the arrays it read are the ones trimmed). */
  fields?: Partial<Record<FieldRole, string>>;
}

/** What was written. */
export interface ExportedSelection {
  /** Lines written. */
  lines: number;
  /** Rollouts those lines hold of the selection. */
  rollouts: number;
}

/** Writes the selected rollouts' lines to `job.output`; refuses an output that is the input. */
export async function exportSelection(job: ExportSelectionJob): Promise<ExportedSelection> {
  const selection = selectionLines(job.places, job.ids);
  if (selection.selected === 0) throw new Error('no rollout is selected: nothing to export');
  const input = resolve(job.input);
  await checkOutputs([{ label: 'the input', path: input }], [{ label: 'the export', path: resolve(job.output) }]);
  const writer = await openAtomicWriter(resolve(job.output));
  try {
    const lines = /\.json$/i.test(input) ? await writeElements(input, selection.items, writer, job.fields ?? {}) : await writeLines(input, selection.lines, writer, job.fields ?? {});
    await writer.commit();
    return { lines, rollouts: selection.selected };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

function changed(path: string, place: { line: number; item?: number }, expected: number, found: number): InputFileError {
  return new InputFileError(`${path} changed since it was analysed: ${recordLocation(place)} holds ${found} rollout${found === 1 ? '' : 's'}, the analysis found ${expected}; nothing was exported (analyse the file again first)`);
}

async function writeLines(path: string, wanted: Map<number, SelectedOnLine[]>, out: AtomicWriter, fields: Partial<Record<FieldRole, string>>): Promise<number> {
  let written = 0;
  let left = wanted.size;
  for await (const lines of readFileLines(path, undefined, { keepBytes: true })) {
    for (const line of lines) {
      const rollouts = wanted.get(line.line);
      if (!rollouts) continue;
      left--;
      const read = line.bytes ? readLine(line) : null;
      const found = read?.kind === 'record' ? rolloutsOfRecord(read.record, fields) : 0;
      if (found !== rollouts.length || !line.bytes) throw changed(path, line, rollouts.length, found);
      const bytes = keptLineBytes({ raw: line.raw, bytes: line.bytes, ...(line.invalidUtf8 ? { invalidUtf8: true } : {}) }, rollouts, fields);
      if (bytes === null) continue;
      await out.write(bytes);
      written++;
    }
    // The last selected line has been written: the rest of the file is not read.
    if (left === 0) break;
  }
  if (left > 0) throw new InputFileError(`${path} changed since it was analysed: it has fewer lines than the selection names; nothing was exported`);
  return written;
}

async function writeElements(path: string, wanted: Map<number, SelectedOnLine[]>, out: AtomicWriter, fields: Partial<Record<FieldRole, string>>): Promise<number> {
  const input = InputFile.open(path);
  let written = 0;
  try {
    for (const record of readText(readDocument(input), path).records) {
      const rollouts = record.item === undefined ? undefined : wanted.get(record.item);
      if (!rollouts) continue;
      const found = rolloutsOfRecord(record, fields);
      if (found !== rollouts.length) throw changed(path, record, rollouts.length, found);
      const text = keptElementText(record.raw, rollouts, fields);
      if (text === null) continue;
      await out.write(text + '\n');
      written++;
    }
  } finally {
    input.close();
  }
  return written;
}
