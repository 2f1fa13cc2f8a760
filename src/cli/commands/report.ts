/** `prof-lens report <file> [--json]`: what PROF keeps and drops, and why. */
import type { FileAnalysis } from '../../core/analysis';
import { parseArgs, UsageError } from '../args';
import { analyseFile } from '../analyseFile';
import { renderReport } from '../reportText';
import { withScorer } from '../scorerOptions';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';

export async function reportCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const file = args.positionals[0];
  if (!file) throw new UsageError('report needs a file: prof-lens report <file> [--json]');
  const analysis = await withScorer(args, io, (scoring) => analyseFile(file, { settings: args.settings, ...scoring }, io));
  if (args.flags.has('--json')) io.stdout(JSON.stringify(reportJson(analysis)) + '\n');
  else io.stdout(renderReport(analysis, 110));
  printDiagnostics(analysis, io);
  return analysis.report.unreadableLines > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
}

/** The machine-readable report: DESIGN §8's fields first, then the rest. */
export function reportJson(a: FileAnalysis): Record<string, unknown> {
  const { rollouts, groups, kept, dropped, unreadableLines, suspectedFalsePositives, byReason, ...rest } = a.report;
  return {
    file: a.fileName,
    rollouts,
    groups,
    kept,
    dropped,
    unreadableLines,
    suspectedFalsePositives,
    byReason,
    scorer: a.scorer,
    settings: a.settings,
    ...rest,
    diagnostics: a.diagnostics.length,
  };
}

/**
 * A file with no rollout in it at all: its problems, then one line that says so; exit 1, since
 * a pipeline that goes on with an empty output would train on nothing.
 */
export function nothingReadable(a: FileAnalysis, io: CliIo, consequence: string): number {
  printDiagnostics(a, io);
  const why = a.report.unreadableLines > 0 ? ` (${a.report.unreadableLines} unreadable line${a.report.unreadableLines === 1 ? '' : 's'}, see above)` : '';
  io.stderr(`${a.fileName}: no readable rollout${why}; ${consequence}\n`);
  return EXIT_UNREADABLE_LINES;
}

/** Unreadable lines and other problems go to stderr, each naming its line. */
export function printDiagnostics(a: FileAnalysis, io: CliIo, limit = 20): void {
  const serious = a.diagnostics.filter((d) => d.severity !== 'info');
  for (const d of serious.slice(0, limit)) io.stderr(`${a.fileName}:${d.line}: ${d.severity}: ${d.message}\n`);
  if (serious.length > limit) io.stderr(`${a.fileName}: … and ${serious.length - limit} more problems\n`);
}
