/**
 * `prof-lens compare <a> <b> [--json]`: two dumps aligned by prompt. Each side is a file, a step
 * of a run folder (`runs/grpo@40`) or a step of a file of several steps (`all.jsonl@40`), analysed
 * as `report` analyses a file, with the threshold `report` would use for it. Without a model the
 * two sides are read at once, one in a worker thread, so comparing costs about one report; a
 * model scores one side after the other (it is the bottleneck, and it is opened once).
 */
import { statSync } from 'node:fs';
import { compareSides, comparisonJson } from '../../core/compare/comparison';
import { thresholdText } from '../../core/evaluation/thresholdWords';
import { capText } from '../../core/presentation/capText';
import { analyseSide, type AnalysedSide, type SideOptions } from '../../scoring/compare/analyseSide';
import { CompareSourceError, resolveCompareSource, type CompareSource } from '../../scoring/compare/compareSource';
import { analyseSideInWorker } from '../../scoring/compare/sideWorker';
import { parseArgs, UsageError, type ParsedArgs } from '../args';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';
import { withScorer, type ScoringChoice } from '../scorerOptions';
import { thresholdFor } from '../threshold';
import { renderComparison } from '../compareText';
import { ruleLine } from '../../core/rules/ruleWords';
import { terminalJson, terminalText } from '../terminalText';

const USAGE = 'compare needs two sides: prof-lens compare <a> <b> [--json], each a rollout file, a run folder with a step (runs/grpo@40) or a file of several steps with one (all.jsonl@40)';

/**
 * Sides this small are read one after the other on this thread: a worker's start (loading its
 * bundle, warming up) costs more than reading them.
 */
const WORKER_BYTES = 16 * 1024 * 1024;

function bytesOf(source: CompareSource): number {
  return source.files.reduce((sum, file) => sum + (statSync(file, { throwIfNoEntry: false })?.size ?? 0), 0);
}

async function resolveSource(text: string, args: ParsedArgs, io: CliIo): Promise<CompareSource> {
  try {
    return await resolveCompareSource(text, io.cwd, args.settings.fields);
  } catch (error) {
    throw error instanceof CompareSourceError ? new UsageError(error.message) : error;
  }
}

/** Both sides analysed: at once (one in a worker) when that pays, else one after the other. */
async function analyseBoth(sources: [CompareSource, CompareSource], options: [SideOptions, SideOptions], scoring: ScoringChoice): Promise<[AnalysedSide, AnalysedSide]> {
  const inParallel = !scoring.modelScorer && bytesOf(sources[0]) + bytesOf(sources[1]) >= WORKER_BYTES;
  try {
    if (inParallel) return await Promise.all([analyseSide(sources[0], options[0]), analyseSideInWorker(sources[1], options[1])]);
    return [await analyseSide(sources[0], options[0]), await analyseSide(sources[1], options[1])];
  } catch (error) {
    throw error instanceof CompareSourceError ? new UsageError(error.message) : error;
  }
}

function printProblems(side: AnalysedSide, io: CliIo): void {
  for (const p of side.problems) io.stderr(`${p.where}:${p.line}: ${p.severity}: ${capText(p.message, 1000)}\n`);
  if (side.moreProblems > 0) io.stderr(`${side.problems[0]?.where ?? ''}: … and ${side.moreProblems} more problems\n`);
}

export async function compareCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  if (args.positionals.length !== 2) throw new UsageError(USAGE);
  const [textA, textB] = args.positionals as [string, string];
  const sources: [CompareSource, CompareSource] = [await resolveSource(textA, args, io), await resolveSource(textB, args, io)];
  return withScorer(args, io, async (scoring) => {
    const thresholds = await Promise.all(sources.map((s) => thresholdFor(args, io, scoring, s.files[0])));
    const options = thresholds.map((t): SideOptions => ({
      settings: { ...args.settings, threshold: t.source.value },
      scorer: scoring.scorer,
      ...(scoring.modelScorer ? { modelScorer: scoring.modelScorer } : {}),
    })) as [SideOptions, SideOptions];
    for (const [i, t] of thresholds.entries()) io.stderr(`${sources[i]!.label}: ${thresholdText(t.source)}\n`);
    const [a, b] = await analyseBoth(sources, options, scoring);
    const comparison = compareSides(a.side, b.side);
    if (args.flags.has('--json')) io.stdout(terminalJson(JSON.stringify(comparisonJson(textA, textB, comparison))) + '\n');
    else io.stdout(terminalText(renderComparison(textA, textB, comparison, undefined, ruleLine(args.settings))));
    if (a.scorerLabel !== b.scorerLabel) io.stderr(`prof-lens compare: the sides were scored differently (a: ${a.scorerLabel}; b: ${b.scorerLabel}): their consistencies and suspected false positives are not on one scale\n`);
    printProblems(a, io);
    printProblems(b, io);
    return comparison.totals.unreadableLinesA + comparison.totals.unreadableLinesB > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
  });
}
