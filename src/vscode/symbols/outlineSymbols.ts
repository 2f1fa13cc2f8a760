/**
 * The Outline, breadcrumbs and Go to Symbol of a rollout file: its groups, each with its rollouts,
 * named as the sidebar names them. Pure (no `vscode` import); the provider turns these into
 * document symbols. Lines are 1-based like the analysis.
 */
import type { RolloutSummary } from '../../protocol/analysis';
import { groupNode, groupsInOrder, rolloutNode, type GroupNames } from '../sidebar/sidebarModel';

/** Above this many rollouts the outline lists groups only: the editor sorts and filters every symbol it gets. */
export const MAX_OUTLINE_ROLLOUTS = 5_000;
/** Groups listed at most. */
export const MAX_OUTLINE_GROUPS = 5_000;

/** One entry of the outline. */
export interface OutlineSymbol {
  name: string;
  detail: string;
  kind: 'group' | 'rollout';
  /** First and last line the entry covers (1-based). */
  firstLine: number;
  lastLine: number;
  children: OutlineSymbol[];
}

/** Groups in file order of their first rollout, each spanning its first to its last line. */
export function outlineSymbols(rollouts: readonly RolloutSummary[], names?: GroupNames): OutlineSymbol[] {
  const withRollouts = rollouts.length <= MAX_OUTLINE_ROLLOUTS;
  const symbols: OutlineSymbol[] = [];
  for (const [key, members] of groupsInOrder(rollouts)) {
    if (symbols.length >= MAX_OUTLINE_GROUPS) break;
    const node = groupNode('', key, members, 'all', key, names);
    const perLine = new Map<number, number>();
    let firstLine = Infinity;
    let lastLine = 0;
    for (const { line } of members) {
      perLine.set(line, (perLine.get(line) ?? 0) + 1);
      firstLine = Math.min(firstLine, line);
      lastLine = Math.max(lastLine, line);
    }
    symbols.push({
      name: node.label,
      detail: node.description,
      kind: 'group',
      firstLine,
      lastLine,
      children: withRollouts
        ? members.map((r) => {
          const child = rolloutNode('', r, perLine.get(r.line) ?? 1);
          return { name: child.label, detail: child.description, kind: 'rollout' as const, firstLine: r.line, lastLine: r.line, children: [] };
        })
        : [],
    });
  }
  return symbols;
}
