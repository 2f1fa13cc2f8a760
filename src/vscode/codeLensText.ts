/**
 * The CodeLens title above a rollout's line. Pure (no `vscode` import). A tie broken by file order
 * reads as a tie ("tied with 9 others, removed by file order"), never as a rank: the order among
 * tied rollouts is the file's, not the scorer's.
 */
import type { RolloutSummary } from '../protocol/analysis';
import { reasonLabel } from '../core/presentation/reasonWords';
import { rankText } from '../core/presentation/summaryWords';
import { tieText } from '../core/presentation/tieWords';

/** Lines longer than this also carry the rollout's summary in the lens: the end of the line is out of sight. */
export const LONG_LINE = 160;

/**
 * `PROF: kept · rank 1 of 5 correct · group of 8`, or `PROF: dropped · tied with 2 others, removed
 * by file order · group of 8`. With `summary` (a long line's end-of-line summary) the lens leads
 * with it: `PROF: ✓ 31 vs 31 · weakest 0.90 (step 1) · kept · rank 1 of 5 correct · group of 8`.
 */
export function lensTitle(rollout: RolloutSummary, group: readonly RolloutSummary[], tied: ReadonlyMap<RolloutSummary, number>, summary?: string): string {
  const tie = tieText(rollout, tied);
  const lead = summary ?? (tie === null ? reasonLabel(rollout.decision.reason) : rollout.decision.kept ? 'kept' : 'dropped');
  if (tie === null) return `PROF: ${lead} · rank ${rankText(rollout, group)} · group of ${group.length}`;
  // A removed tie's summary already says "removed by file order": the count is what the lens adds.
  const isSaid = summary !== undefined && rollout.decision.reason === 'dropped-tie';
  return `PROF: ${lead} · ${isSaid ? tie.replace(/, removed by file order$/, '') : tie} · group of ${group.length}`;
}
