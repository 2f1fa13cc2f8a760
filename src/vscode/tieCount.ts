/**
 * How many rollouts of a file sit in ties PROF broke by file order, counted over the summaries the
 * host holds a slice per event-loop turn, so a million rollouts never hold the editor. Pure (no
 * `vscode` import).
 */
import type { RolloutSummary } from '../protocol/analysis';
import { tiedMembers } from '../core/presentation/tieWords';

/** Rollouts examined per event-loop turn. */
const SLICE = 20_000;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** How many rollouts sit in ties broken by file order, counted a slice at a time. */
export async function countTied(rollouts: readonly RolloutSummary[], isCurrent: () => boolean): Promise<number | null> {
  const groups = new Map<string, RolloutSummary[]>();
  for (let i = 0; i < rollouts.length; i++) {
    const r = rollouts[i] as RolloutSummary;
    const list = groups.get(r.group);
    if (list) list.push(r);
    else groups.set(r.group, [r]);
    if ((i + 1) % SLICE === 0) {
      await nextTurn();
      if (!isCurrent()) return null;
    }
  }
  let tied = 0;
  let examined = 0;
  for (const members of groups.values()) {
    tied += tiedMembers(members).size;
    examined += members.length;
    if (examined >= SLICE) {
      examined = 0;
      await nextTurn();
      if (!isCurrent()) return null;
    }
  }
  return tied;
}

