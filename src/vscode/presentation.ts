/**
 * The words a user reads: end-of-line summaries, decision labels, hover text. Pure (no `vscode`
 * import) so the wording is unit-tested and shared by the raw file and the Rollout View.
 */
import { reasonLabel } from '../core/reasons';
import type { ProfSettings } from '../core/settings';
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


/** A short human label for a PROF reason code (one wording everywhere: see core/reasons). */
export { reasonLabel };

/** The mark a rollout gets: a suspected false positive outranks its decision. */
export function markKind(rollout: RolloutSummary): MarkKind {
  if (rollout.falsePositive.suspected) return 'falsePositive';
  if (rollout.decision.reason.startsWith('not-ranked')) return 'unranked';
  return rollout.decision.kept ? 'kept' : 'dropped';
}

/** ✓ correct, ✗ incorrect, ? unknown, ~ not binary. */
export function outcomeSymbol(rollout: RolloutSummary): string {
  switch (rollout.outcome.kind) {
    case 'correct':
      return '✓';
    case 'incorrect':
      return '✗';
    case 'non-binary':
      return '~';
    case 'unknown':
      return '?';
  }
}

/** Formats a score for display: two decimals, or a dash when there is none. */
export function formatScore(score: number | null | undefined): string {
  return typeof score === 'number' && Number.isFinite(score) ? score.toFixed(2) : '—';
}

/** The weakest scored step: its 0-based index and score. */
export function weakestStep(rollout: RolloutSummary): { step: number; score: number } | null {
  let weakest: { step: number; score: number } | null = null;
  rollout.stepScores.forEach((score, step) => {
    if (score !== null && (weakest === null || score < weakest.score)) weakest = { step, score };
  });
  return weakest;
}

function clip(text: string | null | undefined, max = 24): string {
  if (text === null || text === undefined || text === '') return '—';
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Fills the summary template for one rollout. Unknown placeholders are left as written. */
export function fillSummary(template: string, rollout: RolloutSummary): string {
  const weakest = weakestStep(rollout);
  const values: Record<string, string> = {
    outcome: outcomeSymbol(rollout),
    extracted: clip(rollout.outcome.extracted),
    gold: clip(rollout.gold),
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
export function groupLineSummary(rollouts: readonly RolloutSummary[]): string {
  const correct = rollouts.filter((r) => r.outcome.kind === 'correct').length;
  const incorrect = rollouts.filter((r) => r.outcome.kind === 'incorrect').length;
  const kept = rollouts.filter((r) => r.decision.kept).length;
  const suspected = rollouts.filter((r) => r.falsePositive.suspected).length;
  const parts = [`✓${correct} ✗${incorrect}`, `kept ${kept} of ${rollouts.length}`];
  if (suspected > 0) parts.push(`⚠ ${suspected} suspected false positive${suspected === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

/** The mark for a line of several rollouts: the most alarming one wins. */
export function lineMarkKind(rollouts: readonly RolloutSummary[]): MarkKind {
  const kinds = rollouts.map(markKind);
  for (const kind of ['falsePositive', 'dropped', 'kept'] as const) if (kinds.includes(kind)) return kind;
  return 'unranked';
}

/** Describes the step-count penalty in the paper's terms. */
export function penaltyText(rollout: RolloutSummary, settings: Pick<ProfSettings, 'lambda' | 'maxSteps' | 'penalty'>): string {
  const h = rollout.decision.steps;
  if (!rollout.decision.penalised) return `none (H = ${h})`;
  const why = h <= 1 ? `H = ${h} ≤ 1` : settings.penalty === 'card' ? `H = ${h} ≥ Hλ = ${settings.maxSteps}` : `H = ${h} > 30`;
  return `−λ = −${settings.lambda} (${why})`;
}

/** Ranks within the rollout's outcome class in its group, e.g. `2 of 5 correct`. */
export function rankText(rollout: RolloutSummary, group: readonly RolloutSummary[]): string {
  if (rollout.decision.rank === null) return 'not ranked';
  const sameClass = group.filter((r) => r.outcome.kind === rollout.outcome.kind && r.decision.rank !== null).length;
  return `${rollout.decision.rank} of ${sameClass} ${rollout.outcome.kind}`;
}

/** Outcome line: `✓ correct · extracted 18 vs gold 18 (graded)`. */
export function outcomeText(rollout: RolloutSummary): string {
  const source = rollout.outcome.source === 'none' ? '' : ` (${rollout.outcome.source})`;
  return `${outcomeSymbol(rollout)} ${rollout.outcome.kind} · extracted ${clip(rollout.outcome.extracted, 60)} vs gold ${clip(rollout.gold, 60)}${source}`;
}
