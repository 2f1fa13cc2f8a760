/**
 * A harness's own numeric pred is compared as the harness compares it (ToRA / Qwen2.5-Math
 * `math_equal`, numeric branch): relative 1e-4, and the gold as a percentage (/100, ×100).
 */
import { describe, expect, it } from 'vitest';
import { harnessNumericEqual } from '../../../../src/core/answer/harness';
import { analyseText } from '../../../../src/scoring/analysis/analyse';

describe('harnessNumericEqual', () => {
  it('plain numbers: thousands commas dropped, relative tolerance 1e-4', () => {
    expect(harnessNumericEqual('1600', '1,600')).toBe(true);
    expect(harnessNumericEqual('57.24', '21')).toBe(false);
    expect(harnessNumericEqual('2.6666666666666665', '2')).toBe(false);
    expect(harnessNumericEqual('16386.17', '16386.16')).toBe(true);
    expect(harnessNumericEqual('-10', '-10')).toBe(true);
    expect(harnessNumericEqual('0', '0')).toBe(true);
  });

  it('the gold also counts as a percentage: 0.7 for 70, 7000 for 70', () => {
    expect(harnessNumericEqual('0.7', '70')).toBe(true);
    expect(harnessNumericEqual('0.05', '5')).toBe(true);
    expect(harnessNumericEqual('7000', '70')).toBe(true);
    expect(harnessNumericEqual('0.56', '94')).toBe(false);
  });

  it('undecided (null) unless both sides are plain numbers', () => {
    expect(harnessNumericEqual('\\frac{1}{2}', '0.5')).toBeNull();
    expect(harnessNumericEqual('setwith500pieces', '2,125')).toBeNull();
    expect(harnessNumericEqual('12', 'x+1')).toBeNull();
  });
});

describe('grading a harness dump', () => {
  const line = (pred: string, gt: string, response = ''): string => JSON.stringify({ idx: 0, gt, code: [response], pred: [pred], report: [null] });

  it('the file’s pred is compared as the harness compares numbers; an answer we extracted is not', async () => {
    const fromPred = await analyseText(line('0.7', '70'), { fileName: 'tora.jsonl' });
    expect(fromPred.rollouts[0]?.outcome).toMatchObject({ kind: 'correct', source: 'graded', answerFrom: 'pred' });
    const extracted = await analyseText(JSON.stringify({ gt: '70', code: ['So the rate is $\\boxed{0.7}$.'] }), { fileName: 'x.jsonl' });
    expect(extracted.rollouts[0]?.outcome).toMatchObject({ kind: 'incorrect', answerFrom: 'boxed' });
  });

  it('a pred that is not a plain number goes to the grader', async () => {
    const a = await analyseText(line('\\frac{1}{2}', '0.5'), { fileName: 'tora.jsonl' });
    expect(a.rollouts[0]?.outcome).toMatchObject({ kind: 'correct', answerFrom: 'pred' });
  });
});
