/**
 * Analysing a file on disk for a command (scoring/analysis/analysePath: JSONL streams in chunks; a `.json`
 * document is read whole; parquet rows are read from the whole file), with a progress meter on
 * stderr when it is a terminal.
 */
import { chosenRule } from '../core/rules/registry';
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { InputFile } from '../scoring/inputs/inputFile';
import type { FileAnalysis } from '../core/report/fileAnalysis';
import { analysePath, type PathAnalyseOptions } from '../scoring/analysis/analysePath';
import { adaptContextFor } from '../scoring/inputs/traceTokenizer';
import type { CliIo } from './io';
import { FIELD_NOT_FOUND } from '../core/formats/fieldPresence';
import { UsageError } from './args';

/** Below this size a file's steps are judged in the command's own thread: starting workers would cost more than they save. */
const POOLED_BYTES = 4 * 1024 * 1024;

/** How many threads judge the checker's steps: one (this one) unless set or the file is large, then one per core. */
export interface ThreadOptions {
  checkerThreads?: number;
  /** At most this many (`--jobs N`) where the number is not set. */
  maxCheckerThreads?: number;
}

/** Analyse `path`; texts are not kept (reports and filters do not need them). */
export async function analyseFile(path: string, options: PathAnalyseOptions & ThreadOptions, io: CliIo, command = 'report'): Promise<FileAnalysis> {
  // Opened where the command runs (`io.cwd`), named as the user wrote it; refused unless a regular file.
  const input = options.input ?? openInput(path, command, io);
  const { checkerThreads, maxCheckerThreads, ...rest } = options;
  const threads = checkerThreads ?? Math.min(maxCheckerThreads ?? Infinity, input.size >= POOLED_BYTES ? availableParallelism() : 1);
  // Workers start only when the checker first scores (a file with its own step scores starts none).
  // The pool's module (and `node:worker_threads`) loads only for a file that gets one.
  const pool = options.checkerPool ?? (threads > 1 && options.scorer !== 'file' ? new (await import('../scoring/scorers/checker/checkerPool')).CheckerPool(threads) : undefined);
  options = { ...rest, ...(pool ? { checkerPool: pool } : {}) };
  try {
    const progress = progressLine(io, input.size);
    const tokenizerDir = options.settings?.tokenizerDir;
    const settings = tokenizerDir ? { ...options.settings, tokenizerDir: resolve(io.cwd, tokenizerDir) } : options.settings;
    // A rule that reads the response text (Resample-on-Correct's penalties) needs the texts kept.
    const keepText = chosenRule(options.settings ?? {}).rule.reads.includes('response-text');
    const context = options.context ?? (await adaptContextFor(input.path, { tokenizerDir: settings?.tokenizerDir ?? null }));
    // Which tokenizer read the token ids, and where it was found: a run folder can ship its own.
    if (context.decoder) io.stderr(`${path}: token ids decoded with the tokenizer of ${context.decoder.name}\n`);
    const { analysis } = await analysePath(path, { keepText, rawOffsets: false, ...(io.cas ? { cas: io.cas } : {}), ...options, ...(settings ? { settings } : {}), context, input, onBytes: (done, total) => progress(done, done === total) });
    return checked(analysis, path);
  } finally {
    if (!options.input) input.close();
    if (pool && pool !== rest.checkerPool) await pool.dispose();
  }
}

/**
 * The input of a command that reads one rollout file, opened where the command runs. A folder is
 * a usage error that points to `trend`; anything else that is not a regular file is refused by type.
 */
export function openInput(path: string, command: string, io: CliIo): InputFile {
  refuseFolder(path, command, io);
  return InputFile.open(resolve(io.cwd, path));
}

/** A folder given where one rollout file is read: a usage error that says to use `trend`. */
export function refuseFolder(path: string, command: string, io: CliIo): void {
  const info = (() => {
    try {
      return statSync(resolve(io.cwd, path));
    } catch {
      return null;
    }
  })();
  if (info?.isDirectory()) {
    throw new UsageError(`${path} is a folder: ${command} reads one rollout file. A training run's folder of step files is read with \`prof-lens trend ${path}\`; to ${command} one step, name its file.`);
  }
}

function checked(analysis: FileAnalysis, path: string): FileAnalysis {
  // A mapped path no record has is a mistake in the command, not a finding about the file.
  const missing = analysis.diagnostics.filter((d) => d.code === FIELD_NOT_FOUND);
  if (missing.length > 0) throw new UsageError(missing.map((d) => `--field: ${path}: ${d.message}`).join('\n'));
  return analysis;
}

/** A one-line progress meter on a terminal; silent otherwise (pipelines read stderr too). */
function progressLine(io: CliIo, total: number): (done: number, last?: boolean) => void {
  if (total < 8 * 1024 * 1024 || !io.isStderrTty) return () => undefined;
  let isFinished = false;
  return (done, last) => {
    if (isFinished) return;
    isFinished = last === true;
    const pct = total ? Math.floor((100 * done) / total) : 100;
    io.stderr(`\rreading ${(done / 1048576).toFixed(0)} / ${(total / 1048576).toFixed(0)} MB (${pct}%)${last ? '\n' : ''}`);
  };
}
