/**
 * Analysing a file on disk: JSONL streams in chunks; a `.json` document is read whole (it is one
 * value). Progress goes to stderr when it is a terminal.
 */
import { readFile, stat } from 'node:fs/promises';
import type { SourceRecord } from '../core/model';
import type { FileAnalysis } from '../core/analysis';
import { readLine, readText } from '../core/reader';
import { Analyzer, type AnalyseOptions } from '../scoring/analyse';
import { readFileLines, type FileLine } from '../scoring/fileLines';
import type { CliIo } from './io';

/** Analyse `path`; texts are not kept (reports and filters do not need them). */
export async function analyseFile(path: string, options: Omit<AnalyseOptions, 'fileName'>, io: CliIo): Promise<FileAnalysis> {
  const analyzer = new Analyzer({ keepText: false, rawOffsets: false, ...options, fileName: path });
  const size = (await stat(path)).size;
  const progress = progressLine(io, size);
  if (/\.json$/i.test(path)) {
    const read = readText(await readFile(path, 'utf8'), path);
    analyzer.addDiagnostics(read.diagnostics);
    await analyzer.addRecords(read.records);
  } else {
    for await (const lines of readFileLines(path)) {
      // Slices of a few hundred lines: each slice's parsed records die young, which keeps the
      // collector cheap and the peak memory low.
      for (let i = 0; i < lines.length; i += SLICE) await analyzer.addRecords(readRecords(lines.slice(i, i + SLICE), analyzer));
      progress(lines[lines.length - 1]?.byteEnd ?? 0);
    }
  }
  progress(size, true);
  return analyzer.finish();
}

const SLICE = 256;

function readRecords(lines: readonly FileLine[], analyzer: Analyzer): SourceRecord[] {
  const records: SourceRecord[] = [];
  for (const line of lines) {
    const result = readLine(line);
    if (result.kind === 'record') {
      records.push(result.record);
      if (result.diagnostic) analyzer.addDiagnostics([result.diagnostic]);
    } else if (result.kind === 'bad') analyzer.addDiagnostics([result.diagnostic]);
  }
  return records;
}

/** A one-line progress meter on a terminal; silent otherwise (pipelines read stderr too). */
function progressLine(io: CliIo, total: number): (done: number, last?: boolean) => void {
  if (!io.isStderrTty || total < 8 * 1024 * 1024) return () => undefined;
  return (done, last) => {
    const pct = total ? Math.floor((100 * done) / total) : 100;
    io.stderr(`\rreading ${(done / 1048576).toFixed(0)} / ${(total / 1048576).toFixed(0)} MB (${pct}%)${last ? '\n' : ''}`);
  };
}
