/**
 * `eval`'s figures as a person reads them: one row per subset (ProcessBench's error accuracy,
 * correct accuracy and F1), the published figures for scale, and how often the low-step flag is
 * right at the threshold in use.
 */
import type { EvaluationReport } from '../core/evaluation/firstError';
import type { FlagAgreement } from '../core/evaluation/flagAgreement';
import { formatPercent } from '../core/presentation/numbers';
import { cappedList } from '../core/presentation/listWords';

/** Published figures on the full ProcessBench (its paper's average F1), for scale only: other items, other settings. */
function scaleNote(scorer: string): string {
  const prm = 'Qwen2.5-Math-PRM-7B scores 73.5%';
  return scorer === 'critic'
    ? `(for scale, on the full ProcessBench: critics QwQ-32B-Preview 71.5%, Qwen2.5-72B-Instruct 61.2%; ${prm})`
    : `(for scale: ${prm} on the full ProcessBench)`;
}

/** Up to five entries, indented, then how many more. */
export function listed(entries: readonly string[]): string[] {
  const shown = entries.slice(0, 5).map((u) => `    ${u}`);
  return entries.length > shown.length ? [...shown, `    … and ${entries.length - shown.length} more`] : shown;
}

/** What the table is made of. */
export interface EvaluationText {
  report: EvaluationReport;
  best: EvaluationReport | null;
  scorer: string;
  /** `threshold 0.31, calibrated on …`. */
  thresholdLine: string;
  flags: FlagAgreement;
}

/** The flag's agreement with the labels in one line. */
export function flagLine(f: FlagAgreement): string {
  const parts = [
    `precision ${formatPercent(f.precision)} (${f.flaggedFlawed} of ${f.flagged} flagged are flawed)`,
    `recall ${formatPercent(f.recall)} (${f.flaggedFlawed} of ${f.flawed} flawed are flagged)`,
  ];
  return `  the low-step flag (a step below the threshold) on these ${f.solutions} solutions: ${cappedList(parts, 2, '; ')}`;
}

export function renderEvaluation(t: EvaluationText): string {
  const { report, best, scorer } = t;
  const pct = (x: number | null): string => (x === null ? '   n/a' : formatPercent(x).padStart(6));
  const width = Math.max(8, ...report.subsets.map((s) => s.subset.length)) + 1;
  const rows = [
    `first-error evaluation (scorer: ${scorer}, ${t.thresholdLine})`,
    `  ${'subset'.padEnd(width)} errors  found  correct  passed  error-acc  correct-acc      F1`,
    ...report.subsets.map((s) => `  ${s.subset.padEnd(width)}${String(s.errorItems).padStart(7)} ${String(s.errorHits).padStart(6)} ${String(s.correctItems).padStart(8)} ${String(s.correctHits).padStart(7)}     ${pct(s.errorAccuracy)}       ${pct(s.correctAccuracy)}  ${pct(s.f1)}`),
    `  average F1 over ${report.subsets.filter((s) => s.f1 !== null).length} subset(s) with both kinds of item: ${pct(report.averageF1)}   ${scaleNote(scorer)}`,
    flagLine(t.flags),
  ];
  if (best) rows.push(`  best threshold by average F1: ${best.threshold} → ${pct(best.averageF1)} (chosen on these same items, so flattering)`);
  return rows.join('\n') + '\n';
}
