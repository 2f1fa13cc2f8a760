/**
 * Rollout texts read back from the file an analysis streamed without keeping them (a large file
 * in the editor's worker): the explorer's search reads them a chunk at a time, by byte ranges of
 * consecutive lines (a few megabytes per read), adapts each line again with the analysis's field
 * mapping (no steps, no scores: the texts are all search needs), and lets the chunk go before the
 * next. A JSON array document, which has no lines to read back, is read whole once per search.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { adaptRecord } from '../../core/formats/adaptRecord';
import { readLine, readText } from '../../core/read/reader';
import type { FieldRole } from '../../core/profSettings';
import type { SourceRecord } from '../../core/model';
import type { AdaptContext } from '../../core/formats/trainers';
import type { RolloutText, RolloutTextSource, TextChunk } from '../../core/explore/textSearch';
import type { RolloutPlaces } from '../../core/explore/selection';
import { LineSplitter } from '../../core/read/byteLines';
import { InputFile } from '../inputs/inputFile';
import { readDocument, type LineIndex } from '../analysis/analysePath';

type Fields = Partial<Record<FieldRole, string>>;

/** How the analysis read its records: its field mapping, and what they needed beyond the file (the tokenizer of token-id traces). */
export interface ReadAs {
  fields?: Fields;
  context?: AdaptContext;
}

/** Bytes read at once (a longer line is read on its own, whole). */
const CHUNK_BYTES = 4 * 1024 * 1024;
/** Rollouts per chunk at most. */
const CHUNK_ROWS = 8192;

const EMPTY: RolloutText = Object.freeze({ prompt: '', response: '' });

/**
 * The texts of the rollouts on a run of lines, read with one read of their byte span. `rows`
 * are in file order; a rollout whose line no longer holds it (the file changed) gets empty texts.
 */
async function readSpan(handle: FileHandle, index: LineIndex, places: RolloutPlaces, rows: readonly number[], how: ReadAs): Promise<RolloutText[]> {
  const first = index.range(places.line(rows[0]!));
  const last = index.range(places.line(rows[rows.length - 1]!));
  if (!first || !last) return rows.map(() => EMPTY);
  const bytes = Buffer.alloc(last.end - first.start);
  const { bytesRead } = await handle.read(bytes, 0, bytes.length, first.start);
  const splitter = new LineSplitter({ byte: first.start, line: places.line(rows[0]!) });
  const byLine = new Map<number, Map<number, RolloutText>>();
  const wanted = new Set(rows.map((row) => places.line(row)));
  const records: SourceRecord[] = [];
  for (const fileLine of [...splitter.push(bytes.subarray(0, bytesRead)), ...splitter.end()]) {
    // A line's number comes from the line before it: the span starts at a line the index knows.
    if (!wanted.has(fileLine.line)) continue;
    const read = readLine(fileLine);
    if (read.kind === 'record') records.push(read.record);
  }
  // Token ids are decoded as the analysis decoded them (in the tokenizer's worker), then adapted.
  await how.context?.decoder?.prepare?.(records);
  for (const record of records) {
    const texts = new Map<number, RolloutText>();
    try {
      for (const d of adaptRecord(record, how.fields ?? {}, how.context ?? {}).drafts) texts.set(d.index, { prompt: d.prompt, response: d.response });
    } catch {
      // A line that no longer adapts holds no texts to search.
    }
    byLine.set(record.line, texts);
  }
  return rows.map((row) => byLine.get(places.line(row))?.get(places.index(row)) ?? EMPTY);
}

/**
 * Runs of rows (in file order) whose lines are read with one read: at most CHUNK_ROWS rows, and
 * spanning at most CHUNK_BYTES unless the run is one line (lines between them that hold no
 * rollout are read and passed over).
 */
function* spans(index: LineIndex, places: RolloutPlaces, rows: readonly number[]): Generator<number[]> {
  let run: number[] = [];
  let runStart = 0;
  let lastStart = -1;
  for (const row of rows) {
    const range = index.range(places.line(row));
    if (!range) continue;
    const fits = range.start === lastStart || (range.start > lastStart && range.end - runStart <= CHUNK_BYTES);
    if (run.length > 0 && (run.length >= CHUNK_ROWS || !fits)) {
      yield run;
      run = [];
    }
    if (run.length === 0) runStart = range.start;
    lastStart = range.start;
    run.push(row);
  }
  if (run.length > 0) yield run;
}

/** Texts read back from a file, from any rollout on (what a cache of them fills itself from). */
export interface DiskTextSource extends RolloutTextSource {
  /** The texts of rollouts `first` … the last, in file order, a chunk at a time. */
  chunksFrom(first: number, signal?: AbortSignal): AsyncIterable<TextChunk>;
}

/** The texts of an analysis's rollouts, read back from its JSONL file through `index`. */
export function diskTexts(path: string, index: LineIndex, places: RolloutPlaces, how: ReadAs): DiskTextSource {
  const from = (first: number): number[] => Array.from({ length: Math.max(0, places.count - first) }, (_, i) => first + i);
  async function* chunksFrom(first: number, signal?: AbortSignal): AsyncGenerator<TextChunk> {
    const handle = await open(path, 'r');
    try {
      for (const rows of spans(index, places, from(first))) {
        signal?.throwIfAborted();
        const texts = await readSpan(handle, index, places, rows, how);
        const chunk: TextChunk = { rows, texts };
        yield chunk;
      }
    } finally {
      await handle.close();
    }
  }
  return {
    chunks: (signal) => chunksFrom(0, signal),
    chunksFrom,
    async read(rows, signal) {
      const handle = await open(path, 'r');
      try {
        const byRow = new Map<number, RolloutText>();
        const sorted = [...new Set(rows)].filter((row) => row >= 0 && row < places.count).sort((a, b) => a - b);
        for (const run of spans(index, places, sorted)) {
          signal?.throwIfAborted();
          const texts = await readSpan(handle, index, places, run, how);
          run.forEach((row, i) => byRow.set(row, texts[i]!));
        }
        return rows.map((row) => byRow.get(row) ?? null);
      } finally {
        await handle.close();
      }
    },
  };
}

/** The texts of an analysis of a JSON array document, read whole (it is one value), in rollout order. */
export function documentTexts(path: string, fields: Fields): RolloutTextSource {
  const load = (): RolloutText[] => {
    const input = InputFile.open(path);
    try {
      const texts: RolloutText[] = [];
      for (const record of readText(readDocument(input), path).records) {
        try {
          for (const d of adaptRecord(record, fields).drafts) texts.push({ prompt: d.prompt, response: d.response });
        } catch {
          // Unreadable records gave the analysis no rollout either.
        }
      }
      return texts;
    } finally {
      input.close();
    }
  };
  return {
    async *chunks() {
      const texts = load();
      for (let start = 0; start < texts.length; start += CHUNK_ROWS) {
        const rows: number[] = [];
        for (let row = start; row < Math.min(texts.length, start + CHUNK_ROWS); row++) rows.push(row);
        yield { rows, texts: texts.slice(start, start + rows.length) };
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
    read(rows) {
      const texts = load();
      return Promise.resolve(rows.map((row) => texts[row] ?? null));
    },
  };
}
