/**
 * `prof-lens filter <file> -o kept.jsonl [--decisions d.jsonl]`: offline PROF curation. Kept
 * rollouts are written as the original bytes of their lines; a grouped line keeps only its kept
 * responses (and the matching entries of its parallel arrays).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AnalysedRollout, FileAnalysis } from '../../core/analysis';
import { keptLineText } from '../../core/keptLines';
import { decisionLine, groupIds } from '../../core/decisionLines';
import { readText } from '../../core/reader';
import { parseArgs, UsageError } from '../args';
import { analyseFile } from '../analyseFile';
import { readFileLines } from '../fileLines';
import { withScorer } from '../scorerOptions';
import { printDiagnostics } from './report';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';

export async function filterCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const file = args.positionals[0];
  const output = args.values.get('-o');
  if (!file || !output) throw new UsageError('filter needs a file and an output: prof-lens filter <file> -o <kept.jsonl> [--decisions <decisions.jsonl>]');
  if (resolve(io.cwd, output) === resolve(io.cwd, file)) throw new UsageError('the output file must not be the input file (the input is never modified)');
  const analysis = await withScorer(args, io, (scoring) => analyseFile(file, { settings: args.settings, ...scoring }, io));
  const written = await writeKept(file, output, analysis);
  const decisionsPath = args.values.get('--decisions');
  if (decisionsPath) await writeDecisions(decisionsPath, analysis);
  const r = analysis.report;
  io.stderr(`${file}: kept ${r.kept} of ${r.rollouts} rollouts (${written} lines) → ${output}${decisionsPath ? `; decisions → ${decisionsPath}` : ''}\n`);
  printDiagnostics(analysis, io);
  return r.unreadableLines > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
}

async function writeDecisions(path: string, a: FileAnalysis): Promise<void> {
  const ids = groupIds(a.rollouts);
  const out = createWriteStream(path);
  for (const r of a.rollouts) await write(out, JSON.stringify(decisionLine(r, ids.get(r.group)!)) + '\n');
  await close(out);
}

/** Write the kept lines; returns how many lines were written. */
async function writeKept(file: string, output: string, a: FileAnalysis): Promise<number> {
  const byLine = new Map<number, AnalysedRollout[]>();
  for (const r of a.rollouts) (byLine.get(r.line) ?? byLine.set(r.line, []).get(r.line)!).push(r);
  const out = createWriteStream(output);
  let written = 0;
  if (/\.json$/i.test(file)) {
    // A JSON array has no lines to copy: each kept element becomes one JSONL line.
    for (const record of readText(await readFile(file, 'utf8'), file).records) {
      if (byLine.get(record.line)?.some((r) => r.decision.kept)) {
        await write(out, JSON.stringify(record.value) + '\n');
        written++;
      }
    }
  } else {
    const bytes = await readFile(file);
    for await (const lines of readFileLines(file)) {
      for (const line of lines) {
        const text = keptLineText(line.raw, byLine.get(line.line));
        if (text === null) continue;
        await write(out, text === line.raw ? bytes.subarray(line.byteStart, line.byteEnd) : text + '\n');
        written++;
      }
    }
  }
  await close(out);
  return written;
}

function write(out: WriteStream, data: string | Uint8Array): Promise<void> {
  return new Promise((ok, fail) => (out.write(data, (e) => (e ? fail(e) : ok())) ? undefined : undefined));
}

function close(out: WriteStream): Promise<void> {
  return new Promise((ok, fail) => out.end((e?: Error | null) => (e ? fail(e) : ok())));
}
