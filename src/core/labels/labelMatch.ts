/**
 * Labels meet rollouts: each rollout finds its label by content, and the labelled step by its text
 * (a response split differently since it was labelled still finds its step, or says it cannot).
 * Exported labels are ProcessBench-shaped items (`problem`, `steps`, `label`, `final_answer_correct`).
 */
import type { OutcomeKind } from '../model';
import { contentKeysOf, type LabelStore, type LabelTarget, type RolloutContentKeys, type RolloutLabel } from './labelStore';

/** A rollout's label as it applies to its current steps. */
export type LabelMatch =
  | { kind: 'labelled'; firstWrongStep: number; label: RolloutLabel }
  /** A label for this content whose wrong step is not among the steps: said, and not used. */
  | { kind: 'stale'; reason: string; label: RolloutLabel }
  | { kind: 'none' };

const NONE: LabelMatch = Object.freeze({ kind: 'none' });

/** The label of one rollout (by content), placed on its current steps. */
export function matchLabel(store: LabelStore, target: LabelTarget): LabelMatch {
  return matchKeyedLabel(store, contentKeysOf(target));
}

/** `matchLabel` for a rollout known by its content keys. */
export function matchKeyedLabel(store: LabelStore, keys: RolloutContentKeys): LabelMatch {
  const label = store.labels.get(keys.key);
  if (!label) return NONE;
  if (label.firstWrongStep < 0) return { kind: 'labelled', firstWrongStep: -1, label };
  const at = label.firstWrongStep;
  if (label.stepKey === null) return { kind: 'stale', reason: 'the label names a step but not its text', label };
  const steps = keys.stepKeys;
  if (at < steps.length && steps[at] === label.stepKey) return { kind: 'labelled', firstWrongStep: at, label };
  const moved = steps.indexOf(label.stepKey);
  if (moved >= 0) return { kind: 'labelled', firstWrongStep: moved, label };
  return {
    kind: 'stale',
    reason: `the labelled step ${at + 1} of ${label.steps} is not a step of this rollout as it is split now (${steps.length} steps); the label is not used`,
    label,
  };
}

/** One rollout to export. */
export interface ExportSource extends LabelTarget {
  outcome: { kind: OutcomeKind };
  /** An id for the item, e.g. `rollouts.jsonl:12:0`. */
  id: string;
}

/** A ProcessBench-shaped item. */
export interface ProcessBenchItem {
  id: string;
  problem: string;
  steps: string[];
  /** First wrong step, −1 for a sound solution. */
  label: number;
  /** The outcome as the dump has it; null when it is not known. */
  final_answer_correct: boolean | null;
}

/** The labelled rollouts as ProcessBench items, in the order given; unlabelled and stale ones are left out. */
export function exportProcessBench(store: LabelStore, rollouts: readonly ExportSource[]): ProcessBenchItem[] {
  const items: ProcessBenchItem[] = [];
  for (const r of rollouts) {
    const match = matchLabel(store, r);
    if (match.kind !== 'labelled') continue;
    const correct = r.outcome.kind === 'correct' ? true : r.outcome.kind === 'incorrect' ? false : null;
    items.push({ id: r.id, problem: r.prompt, steps: [...r.steps], label: match.firstWrongStep, final_answer_correct: correct });
  }
  return items;
}
