/**
 * The short texts an editor shows next to a rollout: the end-of-line summary (from the user's
 * template), the tally of a line holding a whole group, and a rollout's rank in its group.
 */
import type { AnalysedRollout } from '../report/fileAnalysis';
import { clip, formatScore } from './numbers';
import { outcomeSymbol } from './outcomeWords';
import { reasonLabel } from './reasonWords';

/** What the summary texts read from a rollout. */
export type SummarySource = Pick<AnalysedRollout, 'outcome' | 'gold' | 'weakestStep' | 'decision' | 'scorer' | 'falsePositive'>;

/** Fills the summary template for one rollout. Unknown placeholders are left as written. */
export function fillSummary(template: string, rollout: SummarySource): string {
  const weakest = rollout.weakestStep;
  const values: Record<string, string> = {
    outcome: outcomeSymbol(rollout.outcome.kind),
    extracted: clip(rollout.outcome.extracted, 24),
    gold: clip(rollout.gold, 24),
    weakest: weakest ? `${formatScore(weakest.score)} (step ${weakest.step + 1})` : '—',
    decision: reasonLabel(rollout.decision.reason),
    steps: String(rollout.decision.steps),
    consistency: formatScore(rollout.decision.consistency),
    rank: rollout.decision.rank === null ? '—' : `#${rollout.decision.rank}`,
    scorer: rollout.scorer,
  };
  const text = template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
  return rollout.falsePositive.suspected ? `${text} · ⚠ suspected false positive` : text;
}

/** The summary for a line holding several rollouts (grouped formats). */
export function groupLineSummary(rollouts: readonly Pick<AnalysedRollout, 'outcome' | 'decision' | 'falsePositive'>[]): string {
  const correct = rollouts.filter((r) => r.outcome.kind === 'correct').length;
  const incorrect = rollouts.filter((r) => r.outcome.kind === 'incorrect').length;
  const kept = rollouts.filter((r) => r.decision.kept).length;
  const tied = rollouts.filter((r) => r.decision.reason === 'dropped-tie').length;
  const suspected = rollouts.filter((r) => r.falsePositive.suspected).length;
  const parts = [`✓${correct} ✗${incorrect}`, `kept ${kept} of ${rollouts.length}`];
  if (tied > 0) parts.push(`${tied} tied (dropped by file order)`);
  if (suspected > 0) parts.push(`⚠ ${suspected} suspected false positive${suspected === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

/** Rank within the rollout's outcome class in its group, e.g. `2 of 5 correct`. */
export function rankText(rollout: Pick<AnalysedRollout, 'outcome' | 'decision'>, group: readonly Pick<AnalysedRollout, 'outcome' | 'decision'>[]): string {
  if (rollout.decision.rank === null) return 'not ranked';
  const sameClass = group.filter((r) => r.outcome.kind === rollout.outcome.kind && r.decision.rank !== null).length;
  return `${rollout.decision.rank} of ${sameClass} ${rollout.outcome.kind}`;
}
