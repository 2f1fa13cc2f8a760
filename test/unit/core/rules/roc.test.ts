// Resample-on-Correct against hand-worked groups of its reference's logic: equal-reward rejection,
// quotas rounded half to even and raised to their minimums, positives lowest penalty first.
import { describe, expect, it } from 'vitest';
import { answerFormatPenalty, toolErrorRatio } from '../../../../src/core/rules/rocPenalties';
import { reasonLabel } from '../../../../src/core/presentation/reasonWords';
import { decide, groupOf, keptIds } from './ruleCases';

const ERR = '<tool_response>Error: bad</tool_response>';
const OK = '<tool_response>42</tool_response>';

describe('roc penalties', () => {
  it('tool-error ratio: 0.5 with no tool response, else the share mentioning "error"', () => {
    expect(toolErrorRatio('no tools')).toBe(0.5);
    expect(toolErrorRatio(`${ERR} ${OK}`)).toBe(0.5);
    expect(toolErrorRatio(`${OK}${OK}${ERR}${ERR}`)).toBe(0.5);
    expect(toolErrorRatio(ERR)).toBe(1);
    expect(toolErrorRatio(OK)).toBe(0);
  });

  it('answer format: 1 when a tag is missing, unpaired or no assistant turn; else (answers − 1) / turns', () => {
    const turn = (body: string) => `<|im_start|>assistant${body}<|im_end|>`;
    expect(answerFormatPenalty('42')).toBe(1);
    expect(answerFormatPenalty('<answer>4</answer><answer>')).toBe(1);
    expect(answerFormatPenalty('<answer>4</answer>')).toBe(1);
    expect(answerFormatPenalty(turn('<answer>4</answer>'))).toBe(0);
    expect(answerFormatPenalty(turn('<answer>4</answer>') + turn('<answer>5</answer>'))).toBe(0.5);
    expect(answerFormatPenalty(turn('<answer>4</answer><answer>4</answer><answer>4</answer>'))).toBe(1);
  });
});

describe('roc', () => {
  it('drops a group whose rewards are all equal', () => {
    expect(decide(groupOf('cccccccc'), 'roc', { down_sample_to_n: 4 }).every((d) => d.reason === 'dropped-equal-rewards')).toBe(true);
  });

  it('drops a group smaller than down_sample_to_n and keeps one of exactly that size', () => {
    expect(decide(groupOf('cic'), 'roc', { down_sample_to_n: 4 }).every((d) => d.reason === 'dropped-below-sample-size')).toBe(true);
    // Said in RoC's terms, not PROF's (`remove`).
    expect(reasonLabel('dropped-below-sample-size')).toBe('dropped: group smaller than down_sample_to_n');
    expect(keptIds(decide(groupOf('cici'), 'roc', { down_sample_to_n: 4 }))).toEqual([0, 1, 2, 3]);
    // The reference's own default (16) drops every group of 8.
    expect(keptIds(decide(groupOf('ccccciii'), 'roc'))).toEqual([]);
  });

  it('keeps the lowest-penalty positives (stable among equals) and the first zero-reward ones', () => {
    // Positives 0–4: tool-error ratios 1, .5, .5, 0, .5 (+1 format each): 3 then 1 (before 2 and 4).
    const texts = [ERR, 'none', `${ERR}${OK}`, OK, 'none', 'x', 'y', 'z'];
    const d = decide(groupOf('ccccciii', (i) => ({ text: texts[i]! })), 'roc', { down_sample_to_n: 4 });
    // Quotas: zero round(3·4/8 = 1.5) = 2, positive round(2.5) = 2.
    expect(keptIds(d)).toEqual([1, 3, 5, 6]);
    expect(d[7]!.reason).toBe('dropped-ranked-out');
  });

  it('rounds half to even: 5 zero-reward of 8 down to 4 gives round(2.5) = 2, not 3', () => {
    const d = decide(groupOf('ccciiiii'), 'roc', { down_sample_to_n: 4, min_zero_reward_trace_num: 1, min_non_zero_reward_trace_num: 1 });
    expect(keptIds(d)).toEqual([0, 1, 3, 4]);
  });

  it('raises a quota to its minimum: 1 zero-reward of 8 still keeps it, beside 3 positives', () => {
    const d = decide(groupOf('ccccccic'), 'roc', { down_sample_to_n: 4 });
    expect(keptIds(d)).toEqual([0, 1, 2, 6]);
  });

  it('keeps the whole group when both quotas fall short of their minimums', () => {
    const d = decide(groupOf('cciiiiii'), 'roc', { down_sample_to_n: 2, min_zero_reward_trace_num: 3, min_non_zero_reward_trace_num: 1 });
    expect(keptIds(d)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('without the response text keeps positives in file order (no penalty is guessed)', () => {
    expect(keptIds(decide(groupOf('ccccciii'), 'roc', { down_sample_to_n: 4 }))).toEqual([0, 1, 5, 6]);
  });
});
