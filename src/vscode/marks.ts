/**
 * How a rollout is marked in the gutter, the overview ruler and the summary colour, and the theme
 * colours those marks use. The words next to them come from core/presentation.
 */
import type { RolloutSummary } from '../protocol/analysis';

/** How a rollout is marked in the gutter, the overview ruler and the summary colour. */
export type MarkKind = 'kept' | 'dropped' | 'falsePositive' | 'unranked';
export const MARK_KINDS: readonly MarkKind[] = ['kept', 'dropped', 'falsePositive', 'unranked'];

/** Theme colour ids the decorations use; each is declared in package.json `contributes.colors`. */
export function themeColorIds(): string[] {
  return [
    ...MARK_KINDS.flatMap((kind) => [`profLens.${kind}.summaryForeground`, `profLens.${kind}.overviewRuler`]),
    'profLens.lowStep.background',
  ];
}

/** The mark a rollout gets: a suspected false positive outranks its decision. */
export function markKind(rollout: Pick<RolloutSummary, 'falsePositive' | 'decision'>): MarkKind {
  if (rollout.falsePositive.suspected) return 'falsePositive';
  if (rollout.decision.reason.startsWith('not-ranked')) return 'unranked';
  return rollout.decision.kept ? 'kept' : 'dropped';
}

/** The mark for a line of several rollouts: the most alarming one wins. */
export function lineMarkKind(rollouts: readonly Pick<RolloutSummary, 'falsePositive' | 'decision'>[]): MarkKind {
  const kinds = rollouts.map(markKind);
  for (const kind of ['falsePositive', 'dropped', 'kept'] as const) if (kinds.includes(kind)) return kind;
  return 'unranked';
}
