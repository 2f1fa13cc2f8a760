/**
 * The final answer as evaluation harnesses take it: the file's `pred` when present, else the written
 * conventions, else the last program output block, else the last number (docs/answer-policy.md §1).
 */
import { describe, expect, it } from 'vitest';
import { finalAnswer, lastProgramOutput } from '../../../../src/core/answer/finalAnswer';
import { analyseText } from '../../../../src/scoring/analysis/analyse';

describe('finalAnswer', () => {
  it('the harness’s own pred wins over anything written in the response', () => {
    expect(finalAnswer('So the total is $\\boxed{17}$.', '18')).toEqual({ text: '18', from: 'pred' });
    expect(finalAnswer('So the total is $\\boxed{17}$.', '  ')).toEqual({ text: '17', from: 'boxed' });
  });

  it('written conventions come before the fallbacks', () => {
    expect(finalAnswer('```output\n5\n```\nThe answer is 6.')).toEqual({ text: '6', from: 'the-answer-is' });
    expect(finalAnswer('Step 1\n\n# Answer\n\n504')).toEqual({ text: '504', from: 'answer-heading' });
  });

  it('then the last program output block, as tool-integrated harnesses read it', () => {
    const response = '```python\nprint(2)\n```\n```output\n2\n```\nThen\n```python\nprint(3.0)\n```\n```output\n3.0\n```\nDone, 12 items.';
    expect(finalAnswer(response)).toEqual({ text: '3.0', from: 'program-output' });
    expect(lastProgramOutput('```output\n  41\n')).toBe('41');
    expect(lastProgramOutput('```output\n```')).toBeNull();
  });

  it('else the last number of the response', () => {
    expect(finalAnswer('She pays 3 dollars a day, so 1,250 in all')).toEqual({ text: '1,250', from: 'last-number' });
    expect(finalAnswer('No numbers here.')).toBeNull();
  });
});

describe('harness outputs in a report', () => {
  const tora = {
    idx: 0, question: 'Janet has 16 eggs and eats 3. How many are left?', gt_cot: '16 - 3 = 13', gt: '13',
    code: ['```python\nprint(16 - 3)\n```\n```output\n13\n```\nJanet has $\\boxed{13}$ eggs left.'], pred: ['13'], report: [null],
  };

  it('ToRA-style lines (no score): graded from pred against gt, and the hover can say so', async () => {
    const wrongPred = { ...tora, idx: 1, code: ['The answer is \\boxed{13}.'], pred: ['12'] };
    const a = await analyseText([tora, wrongPred].map((r) => JSON.stringify(r)).join('\n'), { fileName: 'tora.jsonl' });
    expect(a.rollouts.map((r) => [r.outcome.kind, r.outcome.source, r.outcome.extracted, r.outcome.answerFrom])).toEqual([
      ['correct', 'graded', '13', 'pred'],
      ['incorrect', 'graded', '12', 'pred'],
    ]);
  });

  it('Qwen2.5-Math-style grouped lines: the harness’s score is the outcome, pred the answer shown', async () => {
    const qwen = { idx: 0, question: 'Q', gt: '2', code: ['\\boxed{2}', '\\boxed{3}', 'x'], pred: ['2', '3', ''], score: [true, false, false] };
    const a = await analyseText(JSON.stringify(qwen), { fileName: 'qwen.jsonl' });
    expect(a.rollouts.map((r) => [r.outcome.kind, r.outcome.source, r.outcome.extracted, r.outcome.answerFrom ?? null])).toEqual([
      ['correct', 'file', '2', 'pred'],
      ['incorrect', 'file', '3', 'pred'],
      ['incorrect', 'file', null, null],
    ]);
  });

  it('without pred, a tool-integrated response is graded from its last program output', async () => {
    const { pred: _pred, ...noPred } = tora;
    const a = await analyseText(JSON.stringify({ ...noPred, code: ['```python\nprint(16 - 3)\n```\n```output\n13\n```\nSo that is it.'] }), { fileName: 'x.jsonl' });
    expect(a.rollouts[0]?.outcome).toMatchObject({ kind: 'correct', extracted: '13', answerFrom: 'program-output' });
  });

  it('a pred list that does not match the responses is reported on its line', async () => {
    const a = await analyseText(JSON.stringify({ ...tora, pred: ['13', '14'] }), { fileName: 'x.jsonl' });
    expect(a.diagnostics.map((d) => d.message)).toContain('line 1: pred has 2 entries but code has 1');
  });
});
