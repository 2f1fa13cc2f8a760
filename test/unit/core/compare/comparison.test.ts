/** Alignment and ordering rules of compare, on sides written by hand, and the side-by-side rows of one prompt. */
import { describe, expect, it } from 'vitest';
import { compareSides } from '../../../../src/core/compare/comparison';
import type { CompareSide, SidePrompt } from '../../../../src/core/compare/compareSide';
import { questionKey } from '../../../../src/core/compare/alignmentKey';
import { readFileSync } from 'node:fs';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { buildExplorerTable } from '../../../../src/core/explore/explorerTable';
import { summariseForCompare } from '../../../../src/core/compare/compareSide';
import { promptSides } from '../../../../src/core/compare/promptSides';

function prompt(question: string, gold: string | null, correct: number, rollouts: number, rows: number[] = []): SidePrompt {
  return { question: questionKey(question), gold, prompt: question, group: `g-${question}-${gold}`, groups: 1, rollouts, correct, incorrect: rollouts - correct, suspectedFalsePositives: 0, bestKeptConsistency: null, rows };
}

function side(prompts: SidePrompt[]): CompareSide {
  return { prompts, rollouts: prompts.reduce((n, p) => n + p.rollouts, 0), unreadableLines: 0 };
}

describe('compareSides', () => {
  it('the key is the question, NFC and whitespace normalised', () => {
    expect(questionKey('  Caf\u0065\u0301 \n\t costs?  ')).toBe(questionKey('Caf\u00e9 costs?'));
  });

  it('a question with two golds on one side is told apart by gold on both; otherwise gold is not compared', () => {
    const a = side([prompt('Q', '1', 1, 2), prompt('Q', '2', 2, 2), prompt('R', 'x', 1, 1)]);
    const b = side([prompt('Q', '2', 0, 2), prompt('R', null, 0, 1)]);
    const c = compareSides(a, b);
    expect(c.prompts.map((p) => [p.groupA, p.groupB, p.delta])).toEqual([['g-Q-2', 'g-Q-2', -1], ['g-R-x', 'g-R-null', -1]]);
    expect([c.onlyA, c.onlyB]).toEqual([1, 0]);
  });

  it('groups of one prompt merge, rows included; deltas equal up to rounding keep side a order', () => {
    const a = side([prompt('P', null, 3, 8, [0]), prompt('S', null, 1, 4, [1]), prompt('T', null, 0, 8, [2])]);
    // S: 1/4 → 3/8 is +0.125 computed as 0.375 − 0.25; T: 0 → 1/8.
    const b = side([prompt('T', null, 1, 8, [5]), prompt('P', null, 1, 4, [6]), prompt('P', null, 1, 4, [7]), prompt('S', null, 3, 8, [8])]);
    const c = compareSides(a, b);
    expect(c.prompts.map((p) => [p.prompt, p.nB, p.rowsB])).toEqual([['P', 8, [6, 7]], ['S', 8, [8]], ['T', 8, [5]]]);
    expect(c.totals).toMatchObject({ regressed: 1, improved: 2, unchanged: 0 });
  });
});

describe('promptSides (the Compare view)', () => {
  it("each side's rollouts of a prompt, as explorer rows, from the analyses' own tables", async () => {
    const [a, b] = await Promise.all(['a', 'b'].map((s) => analyseText(readFileSync(`test/fixtures/compare/${s}.jsonl`, 'utf8'), { fileName: `${s}.jsonl` })));
    const [tableA, tableB] = [buildExplorerTable(a!), buildExplorerTable(b!)];
    const c = compareSides(summariseForCompare(tableA, 0, { withRows: true }), summariseForCompare(tableB, 0, { withRows: true }));
    const sides = promptSides(c.prompts[1]!, (id) => tableA.row(id), (id) => tableB.row(id));
    expect(sides.prompt).toBe('What is 2 + 2?');
    expect(sides.a.map((r) => [r.line, r.outcome, r.weakestScore, r.suspectedFalsePositive])).toEqual([[1, 'correct', 0.7, false], [2, 'correct', 0.6, false], [3, 'correct', 0.2, true], [4, 'incorrect', 0.5, false]]);
    expect(sides.b.map((r) => [r.line, r.outcome])).toEqual([[14, 'correct'], [15, 'incorrect'], [16, 'incorrect'], [17, 'incorrect']]);
  });
});

describe('a prompt named as side a names its group', () => {
  it('by its question without the instruction every prompt of side a shares', async () => {
    const instruction = ' Put the final answer after "####" and nothing else.';
    const text = ['Tom has 3 apples and buys 4 more. How many now?', 'A train leaves at 9 and takes 2 hours. When does it arrive?']
      .flatMap((q, i) => [1, 2].map(() => JSON.stringify({ uid: `q${i}`, prompt: q + instruction, response: 'The answer is 7.', answer: '7' })))
      .join('\n');
    const table = buildExplorerTable(await analyseText(text, { fileName: 'a.jsonl' }));
    const c = compareSides(summariseForCompare(table, 0), summariseForCompare(table, 0));
    expect(c.prompts.map((p) => [p.groupA, p.nameA])).toEqual([
      ['q0', 'Tom has 3 apples and buys 4 more. How many now?'],
      ['q1', 'A train leaves at 9 and takes 2 hours. When does it arrive?'],
    ]);
  });
});
