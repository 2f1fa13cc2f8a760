/**
 * One decision line per rollout (docs/cli.md §Decision lines), in input order: what a training pipeline joins back
 * onto its rollouts. Shared by `prof-lens filter --decisions` and the panel's export.
 */
import type { Decision, OutcomeKind } from '../model';
import type { FalsePositive } from '../rules/groups';

export interface DecisionLine {
  line: number;
  index: number;
  group: string;
  correct: boolean | null;
  steps: number;
  stepScores: (number | null)[];
  score: number | null;
  consistency: number | null;
  penalised: boolean;
  kept: boolean;
  reason: string;
  firstLowStep: number | null;
  suspectedFalsePositive: boolean;
  falsePositiveRules: string[];
}

/** What a decision line is made from: any analysed rollout (full or summarised). */
export interface DecisionSource {
  line: number;
  index: number;
  group: string;
  outcome: { kind: OutcomeKind };
  decision: Decision;
  stepScores: (number | null)[];
  firstLowStep: number | null;
  falsePositive: FalsePositive;
}

export { groupIds } from '../report/groupIds';

/** The decision line of one rollout. */
export function decisionLine(r: DecisionSource, groupId: string): DecisionLine {
  const d = r.decision;
  return {
    line: r.line,
    index: r.index,
    group: groupId,
    correct: r.outcome.kind === 'correct' ? true : r.outcome.kind === 'incorrect' ? false : null,
    steps: d.steps,
    stepScores: r.stepScores,
    score: d.score,
    consistency: d.consistency,
    penalised: d.penalised,
    kept: d.kept,
    reason: d.reason,
    firstLowStep: r.firstLowStep,
    suspectedFalsePositive: r.falsePositive.suspected,
    falsePositiveRules: r.falsePositive.rules,
  };
}
