/**
 * One aligned prompt side by side, for the editor's Compare view: each side's rollouts of the
 * prompt as explorer rows (answer, H, step scores, consistency, decision and reason, suspected
 * false positive with its evidence), in file order. Texts and steps are asked for by id, as the
 * Rollout View asks for them.
 */
import type { PromptComparison } from './comparison';
import type { ExplorerRow } from '../explore/explorerRow';

/** Both sides' rows of one prompt. */
export interface PromptSides {
  prompt: string;
  a: ExplorerRow[];
  b: ExplorerRow[];
}

/** The rollouts of `p` on each side (`rowA`/`rowB`: a side's explorer row by rollout id, e.g. `ExplorerTable.row`). */
export function promptSides(p: PromptComparison, rowA: (id: number) => ExplorerRow, rowB: (id: number) => ExplorerRow): PromptSides {
  if (!p.rowsA || !p.rowsB) throw new Error('the comparison was made without rollout ids (summarise the sides with withRows)');
  return { prompt: p.prompt, a: p.rowsA.map(rowA), b: p.rowsB.map(rowB) };
}
