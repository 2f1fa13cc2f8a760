/**
 * What the user's labels say, in the editor's words and figures: a rollout's badge, and the
 * dashboard's measure of the flags against the labels (the low-step flag's precision and recall,
 * the suspected-false-positive flag's on labelled correct answers, and the paper's audit). Pure
 * (no `vscode` import): built from the host's rollout summaries and the labels matched to them.
 */
import { auditFigures } from '../../core/rules/flawAudit';
import { hasVerdict, type EvaluationItem } from '../../core/evaluation/firstError';
import { flagAgreement } from '../../core/evaluation/flagAgreement';
import type { LabelMatch } from '../../core/labels/labelMatch';
import type { RolloutSummary } from '../../protocol/analysis';
import type { DashboardLabels, FalsePositiveAgreement } from '../../protocol/panel';

/** The most sidecar problems the dashboard repeats. */
const MAX_PROBLEMS = 5;

/** A first wrong step (0-based, −1 for sound) in words, steps counted from 1 as everywhere the user reads them. */
export function labelWords(firstWrongStep: number): string {
  return firstWrongStep < 0 ? 'labelled sound' : `labelled: first wrong step ${firstWrongStep + 1}`;
}

/** A rollout's label in words; null when none. */
export function labelBadge(match: LabelMatch | undefined): string | null {
  if (!match || match.kind === 'none') return null;
  if (match.kind === 'stale') return `label not used: ${match.reason}`;
  return labelWords(match.firstWrongStep);
}

type Summary = Pick<RolloutSummary, 'id' | 'group' | 'outcome' | 'decision' | 'falsePositive' | 'stepScores' | 'isScored'>;

/** What the dashboard's label section is built from. */
export interface LabelFiguresInput {
  file: string;
  rollouts: readonly Summary[];
  /** Matches by rollout id (rollouts without a label may be absent). */
  matches: ReadonlyMap<number, LabelMatch>;
  threshold: number;
  problems: readonly string[];
}

const share = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

/** The flags against the labels; null when no rollout of the file is labelled (stale ones included). */
export function dashboardLabels(input: LabelFiguresInput): DashboardLabels | null {
  const items: EvaluationItem[] = [];
  const verdicts = new Map<number, boolean>();
  let stale = 0;
  const fp = { correct: 0, flawed: 0, flagged: 0, flaggedFlawed: 0 };
  for (const r of input.rollouts) {
    const match = input.matches.get(r.id);
    if (!match || match.kind === 'none') continue;
    if (match.kind === 'stale') {
      stale++;
      continue;
    }
    const isFlawed = match.firstWrongStep >= 0;
    items.push({ subset: input.file, stepScores: r.stepScores, firstErrorStep: match.firstWrongStep, ...(hasVerdict(r) ? {} : { isUnscored: true }) });
    if (r.outcome.kind !== 'correct') continue;
    verdicts.set(r.id, isFlawed);
    fp.correct++;
    if (isFlawed) fp.flawed++;
    if (r.falsePositive.suspected) {
      fp.flagged++;
      if (isFlawed) fp.flaggedFlawed++;
    }
  }
  if (items.length === 0 && stale === 0) return null;
  const lowStep = flagAgreement(items, input.threshold);
  const falsePositive: FalsePositiveAgreement = { ...fp, precision: share(fp.flaggedFlawed, fp.flagged), recall: share(fp.flaggedFlawed, fp.flawed) };
  return {
    file: input.file,
    labelled: items.length,
    flawed: lowStep.flawed,
    sound: items.length - lowStep.flawed,
    stale,
    problems: input.problems.slice(0, MAX_PROBLEMS),
    lowStep,
    falsePositive,
    audit: verdicts.size > 0 ? auditFigures('labels', verdicts, input.rollouts) : null,
  };
}
