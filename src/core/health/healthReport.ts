/**
 * A run's (or one file's) steps judged by every detector: its series, its onset by the
 * change-point rule, a severity, and the rollouts that show it best. A detector fires only on
 * evidence: a lasting shift of its series, or rollouts showing it at or above its level; each
 * example names the span that showed it.
 */
import { DETECTORS, accuracyOf, type DetectorSpec } from './detectors';
import { DETECTOR_NAMES, PER_ROLLOUT_DETECTORS, type DetectorResult, type HealthExample, type HealthReport, type Severity } from './healthTypes';
import { findOnset, MIN_STEPS, type Onset } from './onset';
import type { StepHealth } from './stepHealth';
import { mergeSteps } from './stepMerge';

/** Examples a detector lists. */
export const EXAMPLES_PER_DETECTOR = 5;

const pct = (x: number): string => `${(x * 100).toFixed(x < 0.001 && x > 0 ? 2 : 1)}%`;
const count = (n: number): string => n.toLocaleString('en-US');

/** The strongest examples of `id` among `steps`. */
function examplesOf(spec: DetectorSpec, steps: readonly StepHealth[]): HealthExample[] {
  const all = steps.flatMap((s) => s.examples[spec.id] ?? []);
  return all.sort((a, b) => b.strength - a.strength || a.step - b.step || a.line - b.line).slice(0, EXAMPLES_PER_DETECTOR);
}

function severityOfShift(spec: DetectorSpec, onset: Onset, seriesIndex: number): Severity {
  const rule = spec.series[seriesIndex]!.rule;
  const unit = rule.relative ? rule.minEffect * Math.abs(onset.baseline) : rule.minEffect;
  const r = Math.abs(onset.after - onset.baseline) / Math.max(unit, Number.EPSILON);
  return r >= 4 ? 'high' : r >= 2 ? 'medium' : 'low';
}

const severityOfShare = (share: number): Severity => (share >= 0.25 ? 'high' : share >= 0.05 ? 'medium' : 'low');

/** The earliest lasting shift among the detector's own series (context series aside). */
function earliestOnset(spec: DetectorSpec, steps: readonly StepHealth[]): { onset: Onset; series: number } | null {
  let best: { onset: Onset; series: number } | null = null;
  spec.series.forEach((series, i) => {
    if (series.isContext) return;
    const onset = findOnset(steps.map(series.value), series.rule);
    if (onset && (!best || onset.at < best.onset.at)) best = { onset, series: i };
  });
  return best;
}

/** Whether accuracy rose by at least half as much as the score over the same steps (then the score is earned). */
function accuracyKeptUp(steps: readonly StepHealth[], onset: Onset): boolean {
  const mean = (list: readonly StepHealth[]): number | null => {
    const v = list.map(accuracyOf).filter((x): x is number => x !== null);
    return v.length > 0 ? v.reduce((a, b) => a + b, 0) / v.length : null;
  };
  const before = mean(steps.slice(0, onset.at));
  const after = mean(steps.slice(onset.at));
  return before !== null && after !== null && after - before >= 0.5 * (onset.after - onset.baseline);
}

function base(spec: DetectorSpec, steps: readonly StepHealth[]): DetectorResult {
  const series = spec.series.map((s) => ({ label: s.label, points: steps.map((step) => ({ step: step.step, value: s.value(step) })) }));
  return { id: spec.id, name: DETECTOR_NAMES[spec.id], status: 'quiet', summary: '', series, onset: null, severity: null, examples: [] };
}

function judge(spec: DetectorSpec, steps: readonly StepHealth[], kind: HealthReport['kind']): DetectorResult {
  const result = base(spec, steps);
  if (spec.level) result.count = levelCount(spec.level, steps);
  const missing = spec.missing(steps);
  if (!spec.level && kind === 'file') return { ...result, status: 'needs-run', summary: `needs a run: a series of training steps (give the run's folder)${missing === null ? '' : `; and ${missing}`}` };
  if (missing !== null) return { ...result, status: 'not-available', summary: missing };
  const isRun = kind === 'run' && steps.length >= MIN_STEPS;
  const found = isRun ? earliestOnset(spec, steps) : null;
  if (found && !(spec.needsFlatAccuracy && accuracyKeptUp(steps, found.onset))) {
    const at = steps[found.onset.at]!.step;
    const s = spec.series[found.series]!;
    const fmt = (v: number): string => (s.rule.relative ? v.toFixed(0) : v.toFixed(3));
    return {
      ...result, status: 'fired', onset: at, severity: severityOfShift(spec, found.onset, found.series),
      summary: `${s.label} shifted from ${fmt(found.onset.baseline)} to ${fmt(found.onset.after)} from step ${at} on${spec.needsFlatAccuracy ? ', while accuracy did not rise with it' : ''}`,
      examples: examplesOf(spec, steps.slice(found.onset.at)),
    };
  }
  return levelResult(spec, steps, result, isRun);
}

function levelCount(level: NonNullable<DetectorSpec['level']>, steps: readonly StepHealth[]): { hits: number; of: number } {
  let hits = 0;
  let of = 0;
  for (const s of steps) {
    const x = level.share(s);
    hits += x.hits;
    of += x.of;
  }
  return { hits, of };
}

/** A per-rollout detector judged by its share over every step: fired at or above its level. */
function levelResult(spec: DetectorSpec, steps: readonly StepHealth[], result: DetectorResult, isRun: boolean): DetectorResult {
  const noTrend = isRun ? '' : steps.length > 1 ? ` (fewer than ${MIN_STEPS} steps: no trend is judged)` : '';
  if (!spec.level) return { ...result, summary: `no lasting shift${noTrend}` };
  const { hits, of } = levelCount(spec.level, steps);
  if (of === 0) return { ...result, summary: spec.id === 'length' ? `no lasting growth${noTrend}; the dump does not say which responses stopped at the length limit` : 'no rollouts' };
  const share = hits / of;
  const words = `${count(hits)} of ${count(of)} rollouts (${pct(share)}) ${spec.level.what}`;
  if (hits === 0 || share < spec.level.floor) return { ...result, summary: `${words}${noTrend}` };
  const first = steps.find((s) => spec.level!.share(s).hits > 0);
  return { ...result, status: 'fired', severity: severityOfShare(share), summary: words, onset: isRun && first !== steps[0] ? (first?.step ?? null) : null, examples: examplesOf(spec, steps) };
}

/** Every detector's verdict on `parts` (step figures from one run's files, or from one file). */
export function healthReport(options: { path: string; kind: HealthReport['kind']; parts: readonly StepHealth[]; problems?: string[] }): HealthReport {
  const steps = mergeSteps(options.parts);
  const kind = options.kind;
  const detectors = DETECTORS.map((spec) => judge(spec, steps, kind));
  return { path: options.path, kind, steps: steps.length, rollouts: steps.reduce((n, s) => n + s.rollouts, 0), detectors, problems: options.problems ?? [] };
}

/** The detectors a run would add to one file's audit. */
export const RUN_ONLY_DETECTORS = DETECTORS.map((d) => d.id).filter((id) => !PER_ROLLOUT_DETECTORS.includes(id));
