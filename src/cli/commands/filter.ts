/**
 * `prof-lens filter <file> -o kept.jsonl [--decisions d.jsonl]`: offline PROF curation. Kept
 * rollouts are written as the original bytes of their lines; a grouped line keeps only its kept
 * responses (and the matching entries of the arrays the analysis read beside them); a `.json`
 * array's kept elements, and a parquet file's kept rows, are written one per line from their own
 * text. A file with no readable rollout writes nothing and exits 1. No output may be the input
 * or the other output (checked before any work); both are written atomically and replace their
 * targets only when both are complete.
 *
 * The input is read twice (to decide, then to copy), both times through one descriptor, and what
 * each read saw is hashed: a file rewritten, truncated or renamed over in between is refused
 * (exit 2, nothing written) rather than lines of one file written by the decisions of another.
 */
import { createHash, type Hash } from 'node:crypto';
import { resolve } from 'node:path';
import { eachRollout, rolloutCount, type FileAnalysis } from '../../core/report/fileAnalysis';
import { keptElementText, keptLineBytes, lineBytesOf, rolloutsOfRecord } from '../../core/lines/keptLines';
import { decisionLine, groupIds } from '../../core/lines/decisionLines';
import { readText } from '../../core/read/reader';
import type { ProfSettings } from '../../core/profSettings';
import { readDocument } from '../../scoring/analysis/analysePath';
import { InputFileError, type InputFile } from '../../scoring/inputs/inputFile';
import { readInputLines } from '../../scoring/inputs/inputLines';
import { adaptContextFor } from '../../scoring/inputs/traceTokenizer';
import type { AdaptContext } from '../../core/formats/trainers';
import { checkOutputs, openAtomicWriter, type AtomicWriter } from '../../scoring/output/outputFiles';
import { parseArgs, UsageError } from '../args';
import { analyseAtThreshold } from '../threshold';
import { thresholdText } from '../../core/evaluation/thresholdWords';
import { withScorer } from '../scorerOptions';
import { openInput } from '../analyseFile';
import { nothingReadable, printDiagnostics, printTieWarning } from './report';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';

export async function filterCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const file = args.positionals[0];
  const output = args.values.get('-o');
  if (!file || !output) throw new UsageError('filter needs a file and an output: prof-lens filter <file> -o <kept.jsonl> [--decisions <decisions.jsonl>]');
  const decisionsPath = args.values.get('--decisions');
  const outputs = [{ label: '-o', path: resolve(io.cwd, output) }, ...(decisionsPath ? [{ label: '--decisions', path: resolve(io.cwd, decisionsPath) }] : [])];
  await checkOutputs([{ label: 'the input', path: resolve(io.cwd, file) }], outputs);
  const input = openInput(file, 'filter', io);
  try {
    const analysed = createHash('sha256');
    const { analysis, threshold } = await withScorer(args, io, (scoring) => analyseAtThreshold(file, args, io, scoring, { input, onChunk: (b) => analysed.update(b), command: 'filter' }));
    io.stderr(`${file}: ${thresholdText(threshold.source)}\n`);
    // Nothing to decide on: an empty output would look like a filter that kept nothing.
    if (analysis.report.rollouts === 0) return nothingReadable(analysis, io, 'nothing was written');
    const tokenizerDir = args.settings.tokenizerDir ? resolve(io.cwd, args.settings.tokenizerDir) : null;
    const context = await adaptContextFor(input.path, { tokenizerDir });
    const writers: AtomicWriter[] = [];
    let written: number;
    try {
      for (const o of outputs) writers.push(await openAtomicWriter(o.path));
      written = await writeKept({ input, out: writers[0]!, analysis, settings: args.settings, context, analysed: analysed.digest('hex') });
      if (writers[1]) await writeDecisions(writers[1], analysis);
      for (const writer of writers) await writer.commit();
    } catch (error) {
      await Promise.all(writers.map((w) => w.abort()));
      throw error;
    }
    const r = analysis.report;
    io.stderr(`${file}: kept ${r.kept} of ${r.rollouts} rollouts (${written} lines) → ${output}${decisionsPath ? `; decisions → ${decisionsPath}` : ''}\n`);
    printDiagnostics(analysis, io);
    printTieWarning(analysis, io);
    return r.unreadableLines > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
  } finally {
    input.close();
  }
}

async function writeDecisions(out: AtomicWriter, a: FileAnalysis): Promise<void> {
  const ids = groupIds(eachRollout(a));
  for (const r of eachRollout(a)) await out.write(JSON.stringify(decisionLine(r, ids.get(r.group)!)) + '\n');
}

interface KeptJob {
  input: InputFile;
  out: AtomicWriter;
  analysis: FileAnalysis;
  settings: ProfSettings;
  /** What the records needed beyond the file (a tokenizer), so each record gives the rollouts it gave the analysis. */
  context: AdaptContext;
  /** Hash of the bytes the analysis read. */
  analysed: string;
}

/** Write the kept lines, read again through the same descriptor; returns how many lines were written. */
async function writeKept(job: KeptJob): Promise<number> {
  const { input, out, analysis, settings, context } = job;
  const decided = new DecidedLines(analysis);
  const copied = createHash('sha256');
  input.checkUnchanged();
  let written = 0;
  if (/\.json$/i.test(input.path)) {
    // A JSON array has no lines to copy: each kept element becomes one line of its own text.
    const { records } = readText(readDocument(input, (b) => copied.update(b)), input.path);
    await context.decoder?.prepare?.(records);
    for (const record of records) {
      // Several elements may start on one line: each takes the rollouts it gave, in order.
      const text = keptElementText(record.raw, decided.next(rolloutsOfRecord(record, settings.fields, context)), settings.fields);
      if (text === null) continue;
      await out.write(text + '\n');
      written++;
    }
  } else {
    // A parquet row's bytes are its JSON text and a line break: it is written as a line of JSON Lines.
    // A line's text is decoded only when some of its responses are kept and others not (the bytes
    // of a line kept whole are copied as read); each line is written before the next read.
    for await (const lines of readInputLines(input.path, { input, keepBytes: true, textOnDemand: true, onChunk: (b) => copied.update(b) })) {
      for (const line of lines) {
        if (!line.bytes) continue;
        const rollouts = decided.of(line.line);
        if (!rollouts) continue;
        const bytes = keptLineBytes(lineBytesOf(line, line.bytes), rollouts, settings.fields);
        if (bytes === null) continue;
        await out.write(bytes);
        written++;
      }
    }
  }
  checkSameBytes(input, job.analysed, copied);
  return written;
}

type Decided = { index: number; decision: { kept: boolean } };


/** What was decided for each line, asked for in line order: rollouts are in file order, so one cursor walks them once. */
class DecidedLines {
  private row = 0;
  private readonly count: number;

  constructor(private readonly analysis: FileAnalysis) {
    this.count = rolloutCount(analysis);
  }

  /** Each rollout of `line` with whether PROF keeps it; undefined when the line holds none. */
  of(line: number): Decided[] | undefined {
    while (this.row < this.count && this.lineOf(this.row) < line) this.row++;
    let found: Decided[] | undefined;
    while (this.row < this.count && this.lineOf(this.row) === line) (found ??= []).push(this.decided(this.row++));
    return found;
  }

  /** The next `n` rollouts. */
  next(n: number): Decided[] | undefined {
    const found: Decided[] = [];
    while (found.length < n && this.row < this.count) found.push(this.decided(this.row++));
    return found.length > 0 ? found : undefined;
  }

  // `rollouts` is read only when there are no columns: reading it makes every rollout an object.
  private lineOf(row: number): number {
    const rows = this.analysis.rows;
    return rows ? rows.line(row) : this.analysis.rollouts[row]!.line;
  }

  private decided(row: number): Decided {
    const rows = this.analysis.rows;
    return rows ? { index: rows.index(row), decision: { kept: rows.isKept(row) } } : this.analysis.rollouts[row]!;
  }
}

/** Refuses when the second read saw other bytes than the first (the file changed in place). */
function checkSameBytes(input: InputFile, analysed: string, copied: Hash): void {
  input.checkUnchanged();
  if (copied.digest('hex') !== analysed) {
    throw new InputFileError(`${input.path} changed while it was being filtered (its bytes are not the ones analysed): nothing was written; run again on a file that is not being written to`);
  }
}
