/**
 * Analysing a file on disk without ever holding it as one string: JSON Lines stream in chunks
 * (`readFileLines`), so a file larger than a string may be (~512 MB in V8) or than the texts of
 * its rollouts would take is still analysed. A `.json` document is one value and is read whole.
 * Used by the CLI and by the editor's analysis worker for files that are not modified in the
 * editor; the worker keeps where each line is, and reads a rollout's texts back from disk only
 * when the Rollout View or a panel asks for them.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { FileAnalysis } from '../../core/report/fileAnalysis';
import type { SourceRecord } from '../../core/model';
import { prepareRecord } from '../../core/formats/prepareRollout';
import { readLine, readLines, readText } from '../../core/read/reader';
import type { ProfSettings } from '../../core/profSettings';
import type { AdaptContext } from '../../core/formats/trainers';
import type { PromptReading } from '../../core/transcript/promptReading';
import type { Turn } from '../../core/transcript/turns';
import { Analyzer, type AnalyseOptions, type BegunBatch } from './analyse';
import { type FileLine, LineSplitter } from '../../core/read/byteLines';
import { InputFile } from '../inputs/inputFile';
import { readInputLines } from '../inputs/inputLines';
import { adaptContextFor } from '../inputs/traceTokenizer';

/** Options of a file analysis: `onBytes` follows the reading (done and total bytes). */
export interface PathAnalyseOptions extends Omit<AnalyseOptions, 'fileName' | 'onProgress'> {
  onBytes?: (done: number, total: number) => void;
  /** Read through this descriptor (left open), e.g. to read the same file again afterwards. */
  input?: InputFile;
  /** Hears every chunk of bytes read, in order (to hash what was analysed). */
  onChunk?: (bytes: Uint8Array) => void;
}

/** Where the lines that hold rollouts are in the file (byte ranges, terminators included). */
export class LineIndex {
  private readonly lines: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  add(line: FileLine): void {
    this.lines.push(line.line);
    this.starts.push(line.byteStart);
    this.ends.push(line.byteEnd);
  }

  /** Where the last recorded line ends: the bytes the rollouts' lines span. */
  get byteSpan(): number {
    return this.ends.length === 0 ? 0 : this.ends[this.ends.length - 1]!;
  }

  /** The byte range of a 1-based line, if it was recorded. */
  range(line: number): { start: number; end: number } | undefined {
    let lo = 0;
    let hi = this.lines.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.lines[mid]!;
      if (at === line) return { start: this.starts[mid]!, end: this.ends[mid]! };
      if (at < line) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
}

/** The analysis, and (when texts were not kept) where to read each rollout's line again. */
export interface PathAnalysis {
  analysis: FileAnalysis;
  lines: LineIndex | null;
}

/** Slices of a few hundred lines: each slice's parsed records die young, which keeps the collector cheap and the peak memory low. */
const SLICE = 256;

/**
 * Analyse `path` from disk. A binary file is refused with one message (UnreadableFileError); a
 * parquet file's rows are analysed with their texts kept (they cannot be read back by line).
 */
export async function analysePath(path: string, options: PathAnalyseOptions = {}): Promise<PathAnalysis> {
  // Only a regular file: `/dev/zero` and a FIFO are refused by type, before any reading.
  const input = options.input ?? InputFile.open(path);
  try {
    return await analyseInput(path, input, options);
  } finally {
    if (!options.input) input.close();
  }
}

async function analyseInput(path: string, input: InputFile, options: PathAnalyseOptions): Promise<PathAnalysis> {
  const { input: _input, onChunk, ...analyseOptions } = options;
  // A binary file is refused here, with the one message that names it.
  const kind = input.kind();
  const context = options.context ?? (await adaptContextFor(path, { tokenizerDir: options.settings?.tokenizerDir ?? null }));
  const isParquet = kind === 'parquet';
  const analyzer = new Analyzer({ ...analyseOptions, ...(isParquet ? { keepText: true } : {}), context, fileName: path });
  const size = input.size;
  if (kind === 'json') {
    const read = readText(readDocument(input, onChunk), path);
    analyzer.addDiagnostics(read.diagnostics);
    await analyzer.addRecords(read.records);
    options.onBytes?.(size, size);
    return { analysis: await analyzer.finish(), lines: null };
  }
  // A parquet row cannot be read back by its line: its texts are kept instead.
  const index = options.keepText === false && !isParquet ? new LineIndex() : null;
  // With checker workers, a few slices are scored at once while the next are read; each is added in
  // file order. One slice per worker and one more: with two per worker, the slices waiting held more
  // texts than the young generation's collections could pass over (measured 6% slower on 2 cores).
  const depth = options.checkerPool ? options.checkerPool.size + 1 : 1;
  const begun: BegunBatch[] = [];
  try {
    for await (const lines of readInputLines(path, { input, kind, ...(onChunk ? { onChunk } : {}) })) {
      for (let i = 0; i < lines.length; i += SLICE) {
        options.signal?.throwIfAborted();
        const read = readLines(lines.slice(i, i + SLICE), index ? (line) => index.add(line) : undefined);
        await analyzer.decode(read.records);
        begun.push(analyzer.begin(read.records, read.diagnostics));
        while (begun.length >= depth) await analyzer.commit(begun.shift() as BegunBatch);
      }
      options.onBytes?.(isParquet ? size : (lines[lines.length - 1]?.byteEnd ?? 0), size);
    }
    while (begun.length > 0) await analyzer.commit(begun.shift() as BegunBatch);
  } finally {
    // What is still being scored when the analysis fails settles before the error is passed on.
    await Promise.allSettled(begun.map((b) => b.work));
  }
  options.onBytes?.(size, size);
  return { analysis: await analyzer.finish(), lines: index };
}

/** A `.json` document is one value: read whole (as one string), refused when it cannot be one. */
export function readDocument(input: InputFile, onChunk?: (bytes: Uint8Array) => void): string {
  const tooLarge = (): Error => new Error(`${input.path} is ${(input.size / 1048576).toFixed(0)} MB, too large to read as one JSON document; JSON Lines (one rollout per line) is read in pieces and has no such limit`);
  if (input.size > MAX_DOCUMENT_BYTES) throw tooLarge();
  const bytes = Buffer.allocUnsafe(input.size);
  let done = 0;
  while (done < bytes.length) {
    const read = input.read(bytes, done, bytes.length - done, done);
    if (read === 0) break;
    done += read;
  }
  onChunk?.(bytes.subarray(0, done));
  try {
    return bytes.toString('utf8', 0, done);
  } catch (error) {
    // Node says ERR_STRING_TOO_LONG, or V8 a RangeError (`Invalid string length`), depending on where it breaks.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STRING_TOO_LONG' && !(error instanceof RangeError)) throw error;
    throw tooLarge();
  }
}

/** V8's longest string, in bytes of one-byte text: a larger document cannot be read as one. */
const MAX_DOCUMENT_BYTES = 512 * 1024 * 1024 - 24;

type Prepared = ReturnType<typeof prepareRecord>['rollouts'];

/** A rollout's texts read back from its line on disk, with its group key to check it is the same rollout. */
export interface RolloutTexts {
  group: string;
  prompt: string;
  response: string;
  steps: Prepared[number]['steps'];
  responseTurns: Turn[] | null;
  promptReading?: PromptReading;
}

/**
 * The texts of rollouts (by line and response index) read again from the file, with the settings
 * the analysis used. Null for a rollout whose line is no longer what was analysed (the file changed).
 */
export async function readRolloutTexts(path: string, index: LineIndex, wanted: readonly { line: number; index: number }[], settings: ProfSettings): Promise<(RolloutTexts | null)[]> {
  const context = await adaptContextFor(path, { tokenizerDir: settings.tokenizerDir ?? null });
  const handle = await open(path, 'r');
  try {
    const byLine = new Map<number, Prepared | null>();
    const result: (RolloutTexts | null)[] = [];
    for (const w of wanted) {
      if (!byLine.has(w.line)) byLine.set(w.line, await prepareLineAgain(handle, index, w.line, { settings, context }));
      const rollout = byLine.get(w.line)?.find((p) => p.rollout.index === w.index);
      const r = rollout?.rollout;
      result.push(rollout && r ? { group: r.group, prompt: r.prompt, response: r.response, steps: rollout.steps, responseTurns: r.responseTurns ?? null, ...(r.promptReading ? { promptReading: r.promptReading } : {}) } : null);
    }
    return result;
  } finally {
    await handle.close();
  }
}

/** A record read again from its line, with its rollouts prepared as the analysis prepared them. */
export interface RecordAgain {
  record: SourceRecord;
  rollouts: Prepared;
}

/**
 * The records of some lines of `path` read again, each with its rollouts (raw offsets not
 * computed); a line that no longer holds a record is left out.
 */
export async function readRecordsAgain(path: string, index: LineIndex, lines: readonly number[], settings: ProfSettings): Promise<Map<number, RecordAgain>> {
  const context = await adaptContextFor(path, { tokenizerDir: settings.tokenizerDir ?? null });
  const handle = await open(path, 'r');
  const found = new Map<number, RecordAgain>();
  try {
    for (const line of new Set(lines)) {
      const record = await recordAgain(handle, index, line);
      if (!record) continue;
      await context.decoder?.prepare?.([record]);
      found.set(line, { record, rollouts: prepareRecord(record, { settings, rawOffsets: false, firstId: 0, context }).rollouts });
    }
    return found;
  } finally {
    await handle.close();
  }
}

async function recordAgain(handle: FileHandle, index: LineIndex, line: number): Promise<SourceRecord | null> {
  const range = index.range(line);
  if (!range) return null;
  const bytes = Buffer.alloc(range.end - range.start);
  const { bytesRead } = await handle.read(bytes, 0, bytes.length, range.start);
  // Split the bytes the way the analysis did, so the text (BOM, terminator) is the same.
  const splitter = new LineSplitter({ byte: range.start, line });
  const [first] = [...splitter.push(bytes.subarray(0, bytesRead)), ...splitter.end()];
  const read = first ? readLine(first) : null;
  return read?.kind === 'record' ? read.record : null;
}

async function prepareLineAgain(handle: FileHandle, index: LineIndex, line: number, how: { settings: ProfSettings; context: AdaptContext }): Promise<Prepared | null> {
  const record = await recordAgain(handle, index, line);
  if (!record) return null;
  await how.context.decoder?.prepare?.([record]);
  return prepareRecord(record, { settings: how.settings, rawOffsets: false, firstId: 0, context: how.context }).rollouts;
}
