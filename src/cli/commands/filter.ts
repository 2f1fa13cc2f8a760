/**
 * `prof-lens filter <file> -o kept.jsonl [--decisions d.jsonl]`: offline PROF curation. Kept
 * rollouts are written as the original bytes of their lines; a grouped line keeps only its kept
 * responses (and the matching entries of its parallel arrays). No output may be the input or the
 * other output (checked before any work); both are written atomically and replace their targets
 * only when both are complete.
 */
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AnalysedRollout, FileAnalysis } from '../../core/analysis';
import { keptLineText } from '../../core/keptLines';
import { decisionLine, groupIds } from '../../core/decisionLines';
import { readText } from '../../core/reader';
import type { FileLine } from '../../scoring/fileLines';
import { isRowLine, readInputLines } from '../../scoring/inputs/inputFile';
import { checkOutputs, openAtomicWriter, type AtomicWriter } from '../../scoring/outputFiles';
import { parseArgs, UsageError } from '../args';
import { analyseFile } from '../analyseFile';
import { withScorer } from '../scorerOptions';
import { nothingReadable, printDiagnostics } from './report';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';

export async function filterCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const file = args.positionals[0];
  const output = args.values.get('-o');
  if (!file || !output) throw new UsageError('filter needs a file and an output: prof-lens filter <file> -o <kept.jsonl> [--decisions <decisions.jsonl>]');
  const decisionsPath = args.values.get('--decisions');
  const outputs = [{ label: '-o', path: resolve(io.cwd, output) }, ...(decisionsPath ? [{ label: '--decisions', path: resolve(io.cwd, decisionsPath) }] : [])];
  await checkOutputs([{ label: 'the input', path: resolve(io.cwd, file) }], outputs);
  const analysis = await withScorer(args, io, (scoring) => analyseFile(file, { settings: args.settings, ...scoring }, io, 'filter'));
  if (analysis.report.rollouts === 0) return nothingReadable(analysis, io, 'nothing was written');
  const writers: AtomicWriter[] = [];
  let written: number;
  try {
    for (const o of outputs) writers.push(await openAtomicWriter(o.path));
    written = await writeKept(resolve(io.cwd, file), writers[0]!, analysis);
    if (writers[1]) await writeDecisions(writers[1], analysis);
    for (const writer of writers) await writer.commit();
  } catch (error) {
    await Promise.all(writers.map((w) => w.abort()));
    throw error;
  }
  const r = analysis.report;
  io.stderr(`${file}: kept ${r.kept} of ${r.rollouts} rollouts (${written} lines) → ${output}${decisionsPath ? `; decisions → ${decisionsPath}` : ''}\n`);
  printDiagnostics(analysis, io);
  return r.unreadableLines > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
}

async function writeDecisions(out: AtomicWriter, a: FileAnalysis): Promise<void> {
  const ids = groupIds(a.rollouts);
  for (const r of a.rollouts) await out.write(JSON.stringify(decisionLine(r, ids.get(r.group)!)) + '\n');
}

/** Write the kept lines; returns how many lines were written. */
async function writeKept(file: string, out: AtomicWriter, a: FileAnalysis): Promise<number> {
  const byLine = new Map<number, AnalysedRollout[]>();
  for (const r of a.rollouts) (byLine.get(r.line) ?? byLine.set(r.line, []).get(r.line)!).push(r);
  let written = 0;
  if (/\.json$/i.test(file)) {
    // A JSON array has no lines to copy: each kept element becomes one JSONL line.
    for (const record of readText(await readFile(file, 'utf8'), file).records) {
      if (byLine.get(record.line)?.some((r) => r.decision.kept)) {
        await out.write(JSON.stringify(record.value) + '\n');
        written++;
      }
    }
    return written;
  }
  const input = await open(file, 'r');
  try {
    for await (const lines of readInputLines(file)) {
      // The original bytes of this batch, read once and only when a line is copied unchanged.
      let bytes: Buffer | null = null;
      for (const line of lines) {
        const text = keptLineText(line.raw, byLine.get(line.line));
        if (text === null) continue;
        // A parquet row has no bytes of its own in the file: its line is its JSON text.
        if (text === line.raw && !isRowLine(line)) {
          bytes ??= await readBatchBytes(input, lines, file);
          await out.write(bytes.subarray(line.byteStart - lines[0]!.byteStart, line.byteEnd - lines[0]!.byteStart));
        } else await out.write(text + '\n');
        written++;
      }
    }
  } finally {
    await input.close();
  }
  return written;
}

async function readBatchBytes(input: FileHandle, lines: readonly FileLine[], file: string): Promise<Buffer> {
  const start = lines[0]!.byteStart;
  const bytes = Buffer.alloc(lines[lines.length - 1]!.byteEnd - start);
  let done = 0;
  while (done < bytes.length) {
    const { bytesRead } = await input.read(bytes, done, bytes.length - done, start + done);
    if (bytesRead === 0) throw new Error(`${file} got shorter while it was being filtered`);
    done += bytesRead;
  }
  return bytes;
}
