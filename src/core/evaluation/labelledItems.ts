/**
 * Evaluation items from a dump and the user's labels (the sidecar, or a ProcessBench-shaped file):
 * each analysed rollout that a label matches by content becomes an item, its first error the
 * label's, its scores whatever scorer analysed the dump. Stale labels (their step no longer among
 * the rollout's steps) are named and left out.
 */
import { matchLabel } from '../labels/labelMatch';
import type { LabelStore } from '../labels/labelStore';
import { recordLocation } from '../presentation/locationWords';
import { hasVerdict, type EvaluationItem } from './firstError';

/** What an item is made from: an analysed rollout with its texts. */
export interface LabelledSource {
  line: number;
  item?: number | undefined;
  prompt: string;
  response: string;
  steps: readonly { text: string }[];
  stepScores: readonly (number | null)[];
  isScored: boolean;
}

/** The items, and what happened to the labels. */
export interface LabelledItems {
  items: EvaluationItem[];
  /** Labels that matched a rollout (a label matching several identical rollouts counts once). */
  matchedLabels: number;
  /** One sentence per stale label's rollout. */
  stale: string[];
}

/** Items for every rollout a label matches; `subset` names them (the dump's name). */
export function labelledItems(rollouts: readonly LabelledSource[], store: LabelStore, subset: string): LabelledItems {
  const items: EvaluationItem[] = [];
  const stale: string[] = [];
  const matched = new Set<string>();
  for (const r of rollouts) {
    const match = matchLabel(store, { prompt: r.prompt, response: r.response, steps: r.steps.map((s) => s.text) });
    if (match.kind === 'none') continue;
    matched.add(match.label.key);
    if (match.kind === 'stale') {
      stale.push(`${recordLocation(r)}: ${match.reason}`);
      continue;
    }
    items.push({ subset, stepScores: r.stepScores, firstErrorStep: match.firstWrongStep, ...(hasVerdict(r) ? {} : { isUnscored: true }) });
  }
  return { items, matchedLabels: matched.size, stale };
}
