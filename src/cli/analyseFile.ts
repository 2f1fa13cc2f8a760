/**
 * Analysing a file on disk for a command (scoring/analysePath: JSONL streams in chunks; a `.json`
 * document is read whole), with a progress meter on stderr when it is a terminal.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { FileAnalysis } from '../core/analysis';
import type { AnalyseOptions } from '../scoring/analyse';
import { analysePath } from '../scoring/analysePath';
import type { CliIo } from './io';
import { UsageError } from './args';

/** Analyse `path`; texts are not kept (reports and filters do not need them). */
export async function analyseFile(path: string, options: Omit<AnalyseOptions, 'fileName'>, io: CliIo, command = 'report'): Promise<FileAnalysis> {
  const progress = progressLine(io, await inputFileSize(path, command));
  const settings = options.settings?.tokenizerDir ? { ...options.settings, tokenizerDir: resolve(io.cwd, options.settings.tokenizerDir) } : options.settings;
  const { analysis } = await analysePath(path, { keepText: false, rawOffsets: false, ...options, ...(settings ? { settings } : {}), onBytes: (done, total) => progress(done, done === total) });
  return analysis;
}

/** The size of a file a command reads; a folder is a usage error that points to `trend`. */
export async function inputFileSize(path: string, command: string): Promise<number> {
  const info = await stat(path);
  if (info.isDirectory()) {
    throw new UsageError(`${path} is a folder: ${command} reads one rollout file. A training run's folder of step files is read with \`prof-lens trend ${path}\`; to ${command} one step, name its file.`);
  }
  return info.size;
}

/** A one-line progress meter on a terminal; silent otherwise (pipelines read stderr too). */
function progressLine(io: CliIo, total: number): (done: number, last?: boolean) => void {
  if (!io.isStderrTty || total < 8 * 1024 * 1024) return () => undefined;
  let isFinished = false;
  return (done, last) => {
    if (isFinished) return;
    isFinished = last === true;
    const pct = total ? Math.floor((100 * done) / total) : 100;
    io.stderr(`\rreading ${(done / 1048576).toFixed(0)} / ${(total / 1048576).toFixed(0)} MB (${pct}%)${last ? '\n' : ''}`);
  };
}
