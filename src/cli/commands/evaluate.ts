/**
 * `prof-lens eval <file>... [--labels FILE] [--threshold X] [--sweep] [--calibrate] [scorer options]`:
 * how well a step scorer finds the first wrong step of labelled solutions (ProcessBench's
 * error-accuracy, correct-accuracy and F1), one subset per file, and how often its low-step flag is
 * right. Works for any scorer: scores already in the files, the embedded checker, an ONNX PRM, a
 * vLLM endpoint, a critic. Labels: those the files carry (ProcessBench, PRM800K, Math-Shepherd), or
 * with `--labels` the user's own (the sidecar or a ProcessBench-shaped file), matched to the dump's
 * rollouts by content. `--calibrate` stores the F1-best threshold for the scorer's identity.
 */
import { basename } from 'node:path';
import { evaluateFirstError, evaluationItems, hasVerdict, sweepThresholds, type EvaluationItem } from '../../core/evaluation/firstError';
import { flagAgreement } from '../../core/evaluation/flagAgreement';
import { labelledItems } from '../../core/evaluation/labelledItems';
import type { LabelsRead } from '../../core/labels/labelFile';
import { recordLocation } from '../../core/presentation/locationWords';
import { thresholdText } from '../../core/evaluation/thresholdWords';
import { readLabelsFile } from '../../scoring/labels/labelFiles';
import { peekFileScores } from '../../scoring/calibration/scorerIdentity';
import { parseArgs, UsageError, type ParsedArgs } from '../args';
import { analyseAtThreshold, type ThresholdInUse } from '../threshold';
import { withScorer } from '../scorerOptions';
import { printDiagnostics, thresholdJson } from './report';
import { calibrateAndStore, type StoredCalibration } from '../calibrateCommand';
import { renderEvaluation, listed } from '../evalText';
import { EXIT_OK, type CliIo } from '../io';
import { terminalJson, terminalText } from '../terminalText';

/** What the labelled files (or the labels file) gave. */
interface Collected {
  items: EvaluationItem[];
  unscored: string[];
  labels: { file: string; kind: LabelsRead['kind']; count: number; matched: number; stale: string[]; problems: string[] } | null;
  threshold: ThresholdInUse;
  scorerLabel: string;
}

export async function evalCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  if (args.positionals.length === 0) throw new UsageError('eval needs at least one labelled file: prof-lens eval <processbench.json|prm800k.jsonl|math-shepherd.jsonl>... [--labels <file>] [--threshold X] [--sweep] [--calibrate]');
  // Without a model named: the scores the files carry, else the embedded checker.
  const hasModel = args.values.has('--model') || args.values.has('--url');
  const scorer = args.scorer !== 'auto' || hasModel ? args.scorer : (await peekFileScores(args.positionals[0]!)).hasScores ? 'file' : 'checker';
  const labelsPath = args.values.get('--labels');
  const labels = labelsPath ? await readLabelsFile(labelsPath) : null;
  if (labels && labels.store.labels.size === 0) throw new UsageError(`no labels read from ${labelsPath}: ${labels.problems.slice(0, 3).join('; ') || 'the file holds none'}`);
  const collected = await withScorer({ ...args, scorer }, io, (scoring) => collect(args, io, { ...scoring, scorer }, labelsPath && labels ? { path: labelsPath, read: labels } : null));
  const { items, threshold } = collected;
  if (items.length === 0) {
    throw new UsageError(labels
      ? `none of the ${labels.store.labels.size} labels in ${labelsPath} matched a rollout of ${args.positionals.join(', ')} (labels match by the text of prompt and response)`
      : 'no labelled solutions found (expected first-error labels: ProcessBench `label`, PRM800K ratings or Math-Shepherd +/-, or --labels <file>)');
  }
  const report = evaluateFirstError(items, threshold.source.value);
  const flags = flagAgreement(items, threshold.source.value);
  const sweep = args.flags.has('--sweep') ? sweepThresholds(items) : null;
  const calibration = args.flags.has('--calibrate') ? await calibrateAndStore({ args, items, threshold, scorerLabel: collected.scorerLabel, setName: setName(args, labelsPath) }) : null;
  if (args.flags.has('--json')) {
    io.stdout(terminalJson(JSON.stringify({
      scorer, items: items.length, unscored: collected.unscored.length, threshold: thresholdJson(threshold.source), report, flags,
      best: sweep?.best ?? null, labels: collected.labels && { ...collected.labels, problems: collected.labels.problems.length }, calibration,
    })) + '\n');
  } else {
    io.stdout(terminalText(renderEvaluation({ report, best: sweep?.best ?? null, scorer, thresholdLine: thresholdText(threshold.source), flags }) + unscoredLines(collected.unscored) + labelLines(collected.labels) + calibrationLines(calibration)));
  }
  return EXIT_OK;
}

/** The name a calibration gives its labelled set: the files (and the labels file). */
function setName(args: ParsedArgs, labelsPath: string | undefined): string {
  const files = args.positionals.map((f) => basename(f)).join(', ');
  return labelsPath ? `${files} labelled by ${basename(labelsPath)}` : files;
}

async function collect(args: ParsedArgs, io: CliIo, scoring: Parameters<Parameters<typeof withScorer>[2]>[0], labels: { path: string; read: LabelsRead } | null): Promise<Collected> {
  const items: EvaluationItem[] = [];
  const unscored: string[] = [];
  const stale: string[] = [];
  let matched = 0;
  let threshold: ThresholdInUse | null = null;
  let scorerLabel = scoring.scorer as string;
  for (const file of args.positionals) {
    const analysed = await analyseAtThreshold(file, args, io, scoring, { keepText: true, command: 'eval' });
    const analysis = analysed.analysis;
    threshold ??= analysed.threshold;
    scorerLabel = analysis.scorer.label;
    printDiagnostics(analysis, io);
    const subset = basename(file).replace(/\.(jsonl?|json)$/i, '');
    if (labels) {
      const found = labelledItems(analysis.rollouts, labels.read.store, subset);
      items.push(...found.items);
      matched += found.matchedLabels;
      stale.push(...found.stale.map((s) => `${file}: ${s}`));
    } else {
      items.push(...evaluationItems(analysis.rollouts, subset));
    }
    for (const r of analysis.rollouts) {
      const isItem = labels ? false : r.stepLabels !== null;
      if (isItem && !hasVerdict(r)) unscored.push(`${file}: ${recordLocation(r)}: ${r.unscoredReason ?? 'every step score is null (no verdict)'}`);
    }
  }
  const labelsSummary = labels ? { file: labels.path, kind: labels.read.kind, count: labels.read.store.labels.size, matched, stale, problems: labels.read.problems } : null;
  return { items, unscored, labels: labelsSummary, threshold: threshold!, scorerLabel };
}

/** Solutions the scorer gave no verdict on: counted as misses above, and named here. */
function unscoredLines(unscored: readonly string[]): string {
  if (unscored.length === 0) return '';
  return [`  ${unscored.length} solution(s) not scored, counted as misses:`, ...listed(unscored)].join('\n') + '\n';
}

function labelLines(labels: Collected['labels']): string {
  if (!labels) return '';
  const rows = [`  labels: ${labels.matched} of ${labels.count} in ${labels.file} (${labels.kind === 'sidecar' ? 'PROF Lens labels' : 'ProcessBench-shaped'}) matched a rollout by content`];
  if (labels.stale.length > 0) rows.push(`  ${labels.stale.length} label(s) not used:`, ...listed(labels.stale));
  if (labels.problems.length > 0) rows.push(`  ${labels.problems.length} entr${labels.problems.length === 1 ? 'y' : 'ies'} of the labels file left out:`, ...listed(labels.problems));
  return rows.join('\n') + '\n';
}

function calibrationLines(c: StoredCalibration | null): string {
  if (!c) return '';
  const held = c.calibration.heldOut;
  const heldText = held
    ? `held-out F1 ${held.f1 === null ? 'n/a' : `${(held.f1 * 100).toFixed(1)}%`} (threshold ${held.threshold} chosen on ${held.calibratedOn}, measured on the other ${held.measuredOn}; seed ${held.seed})`
    : 'no held-out figure (too few items of each kind to split)';
  return [
    `calibrated: threshold ${c.calibration.threshold}, average F1 ${(c.calibration.f1 * 100).toFixed(1)}% on these ${c.calibration.set.size} items (chosen on them, so flattering); ${heldText}`,
    `  stored for ${c.calibration.identity} in ${c.path}; report, filter, eval and audit use it for this scorer unless --threshold is given`,
  ].join('\n') + '\n';
}
