/**
 * `prof-lens eval <file>... [--threshold X] [--sweep] [scorer options]`: how well a step scorer
 * finds the first wrong step of labelled solutions (ProcessBench's error-accuracy, correct-accuracy
 * and F1), one subset per file. Works for any scorer: the embedded checker, an ONNX PRM, a vLLM
 * endpoint, a critic. Files: ProcessBench JSON, PRM800K, Math-Shepherd (anything with first-error
 * labels). A solution the scorer could not score counts as a miss, as in ProcessBench.
 */
import { basename } from 'node:path';
import { evaluateFirstError, evaluationItems, hasVerdict, sweepThresholds, type EvaluationItem, type EvaluationReport } from '../../core/evaluation/firstError';
import { formatPercent } from '../../core/presentation/numbers';
import { recordLocation } from '../../core/presentation/locationWords';
import { parseArgs, UsageError } from '../args';
import { analyseFile } from '../analyseFile';
import { withScorer } from '../scorerOptions';
import { printDiagnostics } from './report';
import { EXIT_OK, type CliIo } from '../io';

export async function evalCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  if (args.positionals.length === 0) throw new UsageError('eval needs at least one labelled file: prof-lens eval <processbench.json|prm800k.jsonl|math-shepherd.jsonl>... [--threshold X] [--sweep]');
  const scorer = args.scorer === 'auto' && !args.values.has('--model') && !args.values.has('--url') ? 'checker' : args.scorer;
  const items: EvaluationItem[] = [];
  const unscored: string[] = [];
  await withScorer({ ...args, scorer }, io, async (scoring) => {
    for (const file of args.positionals) {
      const analysis = await analyseFile(file, { settings: args.settings, ...scoring, keepText: true }, io);
      printDiagnostics(analysis, io);
      const subset = basename(file).replace(/\.(jsonl?|json)$/i, '');
      items.push(...evaluationItems(analysis.rollouts, subset));
      for (const r of analysis.rollouts) {
        if (r.stepLabels && !hasVerdict(r)) unscored.push(`${file}: ${recordLocation(r)}: ${r.unscoredReason ?? 'every step score is null (no verdict)'}`);
      }
    }
  });
  if (items.length === 0) throw new UsageError('no labelled solutions found (expected first-error labels: ProcessBench `label`, PRM800K ratings or Math-Shepherd +/-)');
  const report = evaluateFirstError(items, args.settings.threshold);
  const sweep = args.flags.has('--sweep') ? sweepThresholds(items) : null;
  if (args.flags.has('--json')) io.stdout(JSON.stringify({ scorer, items: items.length, unscored: unscored.length, report, best: sweep?.best ?? null }) + '\n');
  else io.stdout(renderEvaluation(report, sweep?.best ?? null, scorer) + unscoredLines(unscored));
  return EXIT_OK;
}

/** Solutions the scorer gave no verdict on: counted as misses above, and named here. */
function unscoredLines(unscored: readonly string[]): string {
  if (unscored.length === 0) return '';
  const shown = unscored.slice(0, 5).map((u) => `    ${u}`);
  const more = unscored.length > shown.length ? [`    … and ${unscored.length - shown.length} more`] : [];
  return [`  ${unscored.length} solution(s) not scored, counted as misses:`, ...shown, ...more].join('\n') + '\n';
}

/** Published figures on the full ProcessBench (its paper's average F1), for scale only: other items, other settings. */
function scaleNote(scorer: string): string {
  const prm = 'Qwen2.5-Math-PRM-7B scores 73.5%';
  return scorer === 'critic'
    ? `(for scale, on the full ProcessBench: critics QwQ-32B-Preview 71.5%, Qwen2.5-72B-Instruct 61.2%; ${prm})`
    : `(for scale: ${prm} on the full ProcessBench)`;
}

function renderEvaluation(report: EvaluationReport, best: EvaluationReport | null, scorer: string): string {
  const pct = (x: number | null): string => (x === null ? '   n/a' : formatPercent(x).padStart(6));
  const width = Math.max(8, ...report.subsets.map((s) => s.subset.length)) + 1;
  const rows = [
    `first-error evaluation (scorer: ${scorer}, threshold ${report.threshold})`,
    `  ${'subset'.padEnd(width)} errors  found  correct  passed  error-acc  correct-acc      F1`,
    ...report.subsets.map((s) => `  ${s.subset.padEnd(width)}${String(s.errorItems).padStart(7)} ${String(s.errorHits).padStart(6)} ${String(s.correctItems).padStart(8)} ${String(s.correctHits).padStart(7)}     ${pct(s.errorAccuracy)}       ${pct(s.correctAccuracy)}  ${pct(s.f1)}`),
    `  average F1 over ${report.subsets.filter((s) => s.f1 !== null).length} subset(s) with both kinds of item: ${pct(report.averageF1)}   ${scaleNote(scorer)}`,
  ];
  if (best) rows.push(`  best threshold by average F1: ${best.threshold} → ${pct(best.averageF1)} (chosen on these same items, so flattering)`);
  return rows.join('\n') + '\n';
}
