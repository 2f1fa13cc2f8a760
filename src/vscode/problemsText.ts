/**
 * The one related line a Problems entry carries about its group. Pure (no `vscode` import). One
 * line, not one per member: the editor lists related lines in the hover above the step's own
 * score, and fifteen "same group" rows pushed that out of view. The group panel shows the rest.
 */
import type { RolloutSummary } from '../protocol/analysis';

/** `group of 8 (4 kept, 4 dropped): Show PROF Group opens the group panel`, or null for a group of one. */
export function groupPointerText(group: readonly Pick<RolloutSummary, 'decision'>[]): string | null {
  if (group.length <= 1) return null;
  const kept = group.filter((r) => r.decision.kept).length;
  return `group of ${group.length} (${kept} kept, ${group.length - kept} dropped): Show PROF Group opens the group panel`;
}
