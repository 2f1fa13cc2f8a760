/** `prof-lens report <file> [--json]`: what PROF keeps and drops, and why. */
import { eachSuspected, groupIdsOfAnalysis, type AnalysedRollout, type FileAnalysis } from '../../core/report/fileAnalysis';
import { groupRowsOf } from '../../core/lines/groupRows';
import { tieWarningText } from '../../core/presentation/tieWords';
import { strongestFirst } from '../../core/rules/flagStrength';
import type { ThresholdSource } from '../../core/evaluation/thresholdChoice';
import { parseArgs, UsageError } from '../args';
import { analyseAtThreshold } from '../threshold';
import { renderReport } from '../reportText';
import { withScorer } from '../scorerOptions';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';
import { terminalJson, terminalText } from '../terminalText';
import { capText } from '../../core/presentation/capText';

export async function reportCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const file = args.positionals[0];
  if (!file) throw new UsageError('report needs a file: prof-lens report <file> [--json]');
  const { analysis, threshold } = await withScorer(args, io, (scoring) => analyseAtThreshold(file, args, io, scoring));
  // Nothing read (a trace file without its tokenizer, every line broken): the reason leads, once,
  // and no report of zeros follows it.
  if (analysis.report.rollouts === 0 && analysis.report.unreadableLines > 0 && !args.flags.has('--json')) return nothingReadable(analysis, io, 'nothing to report');
  if (args.flags.has('--json')) io.stdout(terminalJson(JSON.stringify(reportJson(analysis, threshold.source))) + '\n');
  else io.stdout(terminalText(renderReport(analysis, 110, threshold.source)));
  printDiagnostics(analysis, io);
  printTieWarning(analysis, io);
  return analysis.report.unreadableLines > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
}

/** The threshold in a JSON output: its value, where it came from, and the calibration it came from. */
export function thresholdJson(source: ThresholdSource): Record<string, unknown> {
  return { value: source.value, source: source.kind, ...(source.kind === 'calibrated' ? { calibration: source.calibration } : {}) };
}

/** The machine-readable report: the contract's fields first, then the rest. */
export function reportJson(a: FileAnalysis, threshold?: ThresholdSource): Record<string, unknown> {
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
    ...(threshold ? { threshold: thresholdJson(threshold) } : {}),
    ...rest,
    diagnostics: a.diagnostics.length,
    tiesDecided: { droppedByTie: a.report.byReason['dropped-tie'] ?? 0, ranked: a.report.rollouts - a.report.notRanked },
    groupList: groupRowsOf(a),
    falsePositiveList: falsePositiveRows(a),
  };
}

/** The suspected false positives, strongest evidence first, each with what fired and why. */
function falsePositiveRows(a: FileAnalysis): Record<string, unknown>[] {
  const flagged: AnalysedRollout[] = [...eachSuspected(a)];
  const ids = groupIdsOfAnalysis(a);
  return strongestFirst(flagged).map((r) => ({
    line: r.line,
    index: r.index,
    group: ids.get(r.group) ?? null,
    strength: r.falsePositive.strength?.value ?? null,
    evidence: r.evidence ?? null,
    rules: r.falsePositive.rules,
  }));
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
  for (const d of serious.slice(0, limit)) io.stderr(`${a.fileName}:${d.line}: ${d.severity}: ${capText(d.message, 1000)}\n`);
  if (serious.length > limit) io.stderr(`${a.fileName}: … and ${serious.length - limit} more problems\n`);
}

/** One stderr line when ties decided more than a fifth of the ranked rollouts (file order, not steps). */
export function printTieWarning(a: FileAnalysis, io: CliIo): void {
  const line = tieWarningText(a.scorer.label, a.report.byReason['dropped-tie'] ?? 0, a.report.rollouts - a.report.notRanked);
  if (line !== null) io.stderr(`${a.fileName}: ${line}\n`);
}
