/**
 * The labels' badges and the dashboard's measure of the flags against them, with every figure
 * counted by hand from the rollouts below.
 */
import { describe, expect, it } from 'vitest';
import type { LabelMatch } from '../../../../src/core/labels/labelMatch';
import type { RolloutLabel } from '../../../../src/core/labels/labelStore';
import type { RolloutSummary } from '../../../../src/protocol/analysis';
import { dashboardLabels, labelBadge } from '../../../../src/vscode/labels/labelFigures';

type Summary = Pick<RolloutSummary, 'id' | 'group' | 'outcome' | 'decision' | 'falsePositive' | 'stepScores' | 'isScored'>;

function rollout(id: number, kind: 'correct' | 'incorrect', stepScores: number[], opts: { suspected?: boolean; kept?: boolean; consistency?: number } = {}): Summary {
  return {
    id, group: 'g', outcome: { kind, source: 'graded' }, stepScores, isScored: true,
    decision: { id, kept: opts.kept ?? true, reason: 'kept', steps: stepScores.length, score: null, consistency: opts.consistency ?? 0.5, penalised: false, rank: id + 1 },
    falsePositive: { suspected: opts.suspected ?? false, rules: opts.suspected ? ['weak-step'] : [], evidence: null, strength: null },
  };
}

const label = (firstWrongStep: number): RolloutLabel => ({ key: 'c1:0000000000000000', firstWrongStep, steps: 3, stepKey: null });
const labelled = (firstWrongStep: number): LabelMatch => ({ kind: 'labelled', firstWrongStep, label: label(firstWrongStep) });

describe('a label in words', () => {
  it('counts steps from 1, says sound, and says why a stale label is not used', () => {
    expect(labelBadge(labelled(1))).toBe('labelled: first wrong step 2');
    expect(labelBadge(labelled(-1))).toBe('labelled sound');
    expect(labelBadge({ kind: 'stale', reason: 'the labelled step 3 of 5 is not a step of this rollout as it is split now (4 steps); the label is not used', label: label(2) }))
      .toMatch(/^label not used: the labelled step 3 of 5/);
    expect(labelBadge({ kind: 'none' })).toBeNull();
    expect(labelBadge(undefined)).toBeNull();
  });
});

describe('the flags against the labels', () => {
  // 0: correct, flagged (step 2 low), suspected, labelled wrong at step 2 → both flags right.
  // 1: correct, flagged, suspected, labelled sound → both flags wrong.
  // 2: correct, not flagged, labelled wrong at step 1 → both flags miss it.
  // 3: incorrect, flagged, labelled wrong → the low-step flag is right (no false-positive question).
  // 4: correct, not flagged, unlabelled → not counted.
  // 5: correct, stale label → not counted, counted as stale.
  const rollouts = [
    rollout(0, 'correct', [0.9, 0.2, 0.8], { suspected: true, kept: false, consistency: 0.3 }),
    rollout(1, 'correct', [0.9, 0.4], { suspected: true, kept: false, consistency: 0.4 }),
    rollout(2, 'correct', [0.7, 0.9], { consistency: 0.8 }),
    rollout(3, 'incorrect', [0.1]),
    rollout(4, 'correct', [0.9]),
    rollout(5, 'correct', [0.9]),
  ];
  const matches = new Map<number, LabelMatch>([
    [0, labelled(1)], [1, labelled(-1)], [2, labelled(0)], [3, labelled(0)],
    [5, { kind: 'stale', reason: 'moved', label: label(2) }],
  ]);
  const figures = dashboardLabels({ file: 'r.jsonl.prof-labels.json', rollouts, matches, threshold: 0.5, problems: [] });

  it('counts the labelled, flawed, sound and stale rollouts', () => {
    expect(figures).toMatchObject({ file: 'r.jsonl.prof-labels.json', labelled: 4, flawed: 3, sound: 1, stale: 1 });
  });

  it('measures the low-step flag on every labelled rollout: precision 2 of 3, recall 2 of 3', () => {
    expect(figures?.lowStep).toMatchObject({ threshold: 0.5, solutions: 4, flawed: 3, flagged: 3, flaggedFlawed: 2 });
    expect(figures?.lowStep.precision).toBeCloseTo(2 / 3);
    expect(figures?.lowStep.recall).toBeCloseTo(2 / 3);
  });

  it('measures the suspected-false-positive flag on the labelled correct answers: precision 1 of 2, recall 1 of 2', () => {
    expect(figures?.falsePositive).toEqual({ correct: 3, flawed: 2, flagged: 2, flaggedFlawed: 1, precision: 0.5, recall: 0.5 });
  });

  it('runs the audit on the labelled correct answers', () => {
    const audit = figures?.audit;
    expect(audit?.judge).toBe('labels');
    expect(audit?.sample).toBe(3);
    expect(audit?.flawed).toBe(2);
    expect(audit?.flawedShare).toBeCloseTo(2 / 3);
    // PROF drops 0 and 1; of the two flawed (0, 2) it drops one; of its two drops one (1) was sound.
    expect(audit?.prof.droppedOfFlawed).toBe(0.5);
    expect(audit?.prof.soundOfRemoved).toBe(0.5);
  });

  it('is absent when no rollout of the file is labelled', () => {
    expect(dashboardLabels({ file: 'x', rollouts, matches: new Map(), threshold: 0.5, problems: [] })).toBeNull();
  });

  it('has no audit when only incorrect answers are labelled, and shares with nothing to divide by are null', () => {
    const only = dashboardLabels({ file: 'x', rollouts, matches: new Map([[3, labelled(0)]]), threshold: 0.5, problems: ['p1'] });
    expect(only?.audit).toBeNull();
    expect(only?.falsePositive.precision).toBeNull();
    expect(only?.problems).toEqual(['p1']);
  });
});
