import { describe, expect, it } from 'vitest';
import type { RolloutSummary } from '../../../src/protocol/analysis';
import { RolloutIndex } from '../../../src/vscode/rolloutIndex';
import { NOT_SUSPECTED } from '../../../src/core/rules/groups';
import { rolloutFacts } from '../../../src/core/presentation/rolloutFacts';

function rollout(id: number, line: number, group: string, scores: number[], suspected = false): RolloutSummary {
  let offset = 10;
  const rawSteps = scores.map(() => {
    const span = { start: offset, end: offset + 5 };
    offset += 8;
    return span;
  });
  return {
    id, line, index: 0, group, gold: '1', rawSteps, stepScores: scores, stepNotes: scores.map(() => null), scorer: 'file',
    outcome: { kind: 'correct', source: 'file' },
    decision: { id, kept: true, reason: 'kept', steps: scores.length, score: 0.5, consistency: 0.5, penalised: false, rank: 1 },
    falsePositive: { suspected, rules: suspected ? ['weak-step'] : [], evidence: null, strength: null },
    ...rolloutFacts({ stepScores: scores, stepNotes: [], isScored: true, steps: scores.length, falsePositive: NOT_SUSPECTED }, { threshold: 0.5, aggregate: 'mean' }),
  };
}

const rollouts = [
  rollout(0, 1, 'a', [0.9, 0.2, 0.8]),
  rollout(1, 2, 'a', [0.9, 0.9]),
  rollout(2, 3, 'b', [0.1, 0.9], true),
  rollout(3, 4, 'b', [0.7, 0.3]),
];

describe('RolloutIndex', () => {
  it('finds the step under a position by its raw offsets', () => {
    const index = new RolloutIndex();
    index.add(rollouts);
    expect(index.stepAt({ line: 1, character: 18 })).toMatchObject({ step: 1, start: 18, end: 23 });
    expect(index.stepAt({ line: 1, character: 16 })).toBeUndefined();
  });

  it('finds the response of a grouped line a position is in, on a step or between two', () => {
    // One line, three responses one after another: their steps at 10…, 100…, 200….
    const grouped = [0, 1, 2].map((i) => {
      const r = rollout(10 + i, 7, 'g', [0.9, 0.2]);
      return { ...r, index: i, rawSteps: [{ start: 10 + 100 * i, end: 15 + 100 * i }, { start: 20 + 100 * i, end: 25 + 100 * i }] };
    });
    const index = new RolloutIndex();
    index.add(grouped);
    expect(index.rolloutAt({ line: 7, character: 221 })?.index).toBe(2);
    expect(index.rolloutAt({ line: 7, character: 150 })?.index).toBe(1);
    expect(index.rolloutAt({ line: 7, character: 12 })?.index).toBe(0);
    // Before the first response's steps (the prompt): the line's first response.
    expect(index.rolloutAt({ line: 7, character: 2 })?.index).toBe(0);
  });

  it('walks low-score steps forwards and backwards, wrapping at the ends', () => {
    const index = new RolloutIndex();
    index.add(rollouts);
    const next = index.nearestLowStep({ line: 1, character: 0 }, 1);
    expect([next?.rollout.line, next?.step]).toEqual([1, 1]);
    const after = index.nearestLowStep({ line: 1, character: 18 }, 1);
    expect([after?.rollout.line, after?.step]).toEqual([3, 0]);
    const wrapped = index.nearestLowStep({ line: 4, character: 50 }, 1);
    expect([wrapped?.rollout.line, wrapped?.step]).toEqual([1, 1]);
    const back = index.nearestLowStep({ line: 3, character: 0 }, -1);
    expect([back?.rollout.line, back?.step]).toEqual([1, 1]);
  });

  it('jumps to the next group and the next suspected false positive', () => {
    const index = new RolloutIndex();
    index.add(rollouts);
    expect(index.nextGroup(1)?.line).toBe(3);
    expect(index.nextRollout(3, (r) => r.falsePositive.suspected)?.line).toBe(3);
  });

  it('keeps file order when the visible lines arrive before the rest', () => {
    const index = new RolloutIndex();
    index.add([rollouts[2]!, rollouts[3]!]);
    expect(index.all.map((r) => r.id)).toEqual([2, 3]);
    index.add([rollouts[0]!, rollouts[1]!]);
    expect(index.all.map((r) => r.id)).toEqual([0, 1, 2, 3]);
    expect(index.group('a').map((r) => r.id)).toEqual([0, 1]);
    expect(index.size).toBe(4);
  });
});
