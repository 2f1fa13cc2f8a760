/**
 * Ties in words. A tie broken by file order is not a judgment: a rollout removed from a tie (or
 * kept out of one) reads "tied with 9 others, removed by file order", never "rank 12 of 14"; and a
 * file where most ranked rollouts sit in such ties is one the scorer cannot rank.
 */
import type { AnalysedRollout } from '../report/fileAnalysis';
import { TIE_TOLERANCE } from '../rules/profMath';

/** What tie words read from a rollout. */
export type TieSource = Pick<AnalysedRollout, 'id' | 'outcome' | 'decision'>;

/**
 * The members of one group that sit in a tie PROF broke by file order (every `dropped-tie`
 * rollout and every rollout of its outcome class whose consistency it ties), each with how many
 * others share its tie. O(n log n) per group, so a group of a million tied rollouts costs a sort.
 */
export function tiedMembers<T extends TieSource>(members: readonly T[]): Map<T, number> {
  const tied = new Map<T, number>();
  for (const kind of ['correct', 'incorrect'] as const) {
    const ranked = members.filter((r) => r.outcome.kind === kind && r.decision.consistency !== null);
    if (!ranked.some((r) => r.decision.reason === 'dropped-tie')) continue;
    ranked.sort((a, b) => (a.decision.consistency as number) - (b.decision.consistency as number));
    // Runs of equal consistency (within the tolerance); a run with a tie broken by file order is a tie.
    for (let start = 0; start < ranked.length;) {
      let end = start + 1;
      while (end < ranked.length && (ranked[end]!.decision.consistency as number) - (ranked[end - 1]!.decision.consistency as number) <= TIE_TOLERANCE) end++;
      const run = ranked.slice(start, end);
      if (run.some((r) => r.decision.reason === 'dropped-tie')) for (const r of run) tied.set(r, run.length - 1);
      start = end;
    }
  }
  return tied;
}

/**
 * `tied with 9 others, removed by file order` (or `kept by file order`) for a rollout in a tie
 * PROF broke by file order; null for a rollout its rank decided. `tied` is `tiedMembers` of its group.
 */
export function tieText<T extends TieSource>(rollout: T, tied: ReadonlyMap<T, number>): string | null {
  const others = tied.get(rollout);
  if (others === undefined) return null;
  return `tied with ${others} other${others === 1 ? '' : 's'}, ${rollout.decision.kept ? 'kept' : 'removed'} by file order`;
}

/** `the checker cannot tell 603 of 1,024 rollouts apart`: the sentence that opens the tie notice. */
export function tieNoticeText(scorer: string, tied: number, rollouts: number): string {
  const who = scorer === 'file' ? "The file's step scores" : `The ${scorer}`;
  return `${who} cannot tell ${tied.toLocaleString('en-US')} of ${rollouts.toLocaleString('en-US')} rollouts apart:`
    + ' their step scores tie, so PROF keeps or removes them by file order, not by their steps.'
    + ' A process reward model or a critic scores steps finely enough to rank them.';
}

/** Whether ties decide most of what was ranked: the notice's condition. */
export function isMostlyTies(tied: number, ranked: number): boolean {
  return ranked > 0 && tied * 2 > ranked;
}

/** Above this share of the ranked rollouts decided by file order, the commands say so. */
export const TIE_WARNING_SHARE = 0.2;

/**
 * The one line `report`, `filter` and `trend` print when ties decide more than a fifth of the
 * ranked rollouts; null below that. `droppedByTie`: rollouts PROF removed from a tie by file order.
 */
export function tieWarningText(scorer: string, droppedByTie: number, ranked: number): string | null {
  if (ranked === 0 || droppedByTie <= TIE_WARNING_SHARE * ranked) return null;
  const share = `${((100 * droppedByTie) / ranked).toFixed(0)}%`;
  return `ties decided ${droppedByTie.toLocaleString('en-US')} of ${ranked.toLocaleString('en-US')} ranked rollouts (${share}): `
    + `their step scores (${scorer}) are equal, so they were removed by file order, not by their steps; `
    + 'a process reward model or a critic (--scorer onnx|http|critic) would rank them';
}
