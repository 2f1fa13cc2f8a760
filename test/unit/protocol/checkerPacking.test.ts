/**
 * A checker worker's answer travels packed (every score in one array, every note in one text):
 * the host cuts it back into the items it sent, notes and CAS steps in their own item, and refuses
 * an answer that does not fit them rather than giving one rollout another's notes.
 */
import { describe, expect, it } from 'vitest';
import { judgedItems, isCheckerToHost } from '../../../src/protocol/checker';
import { judgeSteps } from '../../../src/scoring/scorers/checker/judgeSteps';

const SCORES = { falseClaim: 0.05, pass: 0.9 };

describe("the checker worker's packed answer", () => {
  it('gives each item its own scores, notes and CAS steps', () => {
    const items = [
      ['So 3 + 4 = <<3+4=7>>7 apples.', 'No arithmetic here.'],
      [],
      ['Then 2 + 2 = 5.', 'We have $\\sqrt{8} = 2\\sqrt{2}$.', 'Done'],
    ];
    const packed = judgeSteps(items, SCORES);
    expect(isCheckerToHost({ type: 'judged', id: 1, ...packed })).toBe(true);
    expect(judgedItems(packed, items.map((s) => s.length))).toEqual([
      { scores: [0.9, 0.9], notes: ['checked: 3+4=7; <<3+4=7>>7; 3 + 4 = 7', null], casSteps: [] },
      { scores: [], notes: [], casSteps: [] },
      { scores: [0.05, 0.9, 0.9], notes: ['2 + 2 = 5 is false (4)', null, null], casSteps: [1] },
    ]);
  });

  it('refuses an answer that does not fit the items sent', () => {
    const packed = judgeSteps([['So 3 + 4 = 7.'], ['Then 2 + 2 = 4.']], SCORES);
    expect(judgedItems(packed, [1, 1])).not.toBeNull();
    expect(judgedItems(packed, [1, 2])).toBeNull();
    expect(judgedItems({ ...packed, notes: `${packed.notes}x` }, [1, 1])).toBeNull();
    expect(judgedItems({ ...packed, casSteps: [2] }, [1, 1])).toBeNull();
    expect(judgedItems({ ...packed, casSteps: [1, 0] }, [1, 1])).toBeNull();
  });
});
