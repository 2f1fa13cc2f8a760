import { describe, expect, it } from 'vitest';
import { askedFormatOf, readAskedAnswer } from '../../../../src/core/answer/askedFormat';
import { verlGsm8kAnswer, verlGsm8kEqual } from '../../../../src/core/answer/trainerRule';
import { readPrompt } from '../../../../src/core/transcript/promptReading';
import { groupNamesOf } from '../../../../src/core/presentation/groupNames';

describe('the answer format a prompt asks for', () => {
  it('reads each stated format, the last mention winning', () => {
    expect(askedFormatOf("Let's think step by step and output the final answer after `####`.")).toBe('hashes');
    expect(askedFormatOf('Please reason step by step, and put your final answer within \\boxed{}.')).toBe('boxed');
    expect(askedFormatOf('… enclosed within <think> </think> and <answer> </answer> tags')).toBe('answer-tags');
    expect(askedFormatOf('End your response with "The answer is: X".')).toBe('the-answer-is');
    expect(askedFormatOf('Use \\boxed{} for the answer. Actually put the final answer after ####.')).toBe('hashes');
  });

  it('states none where no format is asked, and a markdown heading is not one', () => {
    expect(askedFormatOf('How many apples does Tom have?')).toBeNull();
    expect(askedFormatOf('#### Problem\nJohn has 3 apples. How many does he have now?')).toBeNull();
  });
});

describe('the answer at the asked marker', () => {
  it('takes the last marker with markdown around it removed', () => {
    expect(readAskedAnswer('so 15 + 9 = 24 ... `#### 21`\n', 'hashes')?.text).toBe('21');
    expect(readAskedAnswer('#### **18**.', 'hashes')?.text).toBe('18');
    expect(readAskedAnswer('#### 36000` pounds.', 'hashes')?.text).toBe('36000');
    expect(readAskedAnswer('#### 50`。', 'hashes')?.text).toBe('50');
    expect(readAskedAnswer('#### $17.00', 'hashes')?.text).toBe('17.00');
  });

  it('earlier phrases naming other numbers never win over the final marker', () => {
    expect(readAskedAnswer('The answer is not 27. The answer is correct.\n#### 21', 'hashes')?.text).toBe('21');
  });

  it('a heading of five # is not the marker', () => {
    expect(readAskedAnswer('#### 6\n##### Explanation:\nEach gets 6.', 'hashes')?.text).toBe('6');
  });

  it('no marker, no answer (no last-number fallback)', () => {
    expect(readAskedAnswer('So she needs 21 more rhinestones.', 'hashes')).toBeNull();
    expect(readAskedAnswer('x = 4', 'boxed')).toBeNull();
  });

  it('boxes, tags and "the answer is"', () => {
    expect(readAskedAnswer('first \\boxed{3}, then corrected: \\boxed{4}', 'boxed')?.text).toBe('4');
    expect(readAskedAnswer('<think>2+3</think> <answer> 5 </answer>', 'answer-tags')?.text).toBe('5');
    expect(readAskedAnswer('The answer is 7 apples.\nWait.\nThe final answer is: 8', 'the-answer-is')?.text).toBe('8');
  });

  it('a hostile line is read in linear time', () => {
    const line = `${'`'.repeat(100_000)}x ${'#### '.repeat(50_000)}`;
    const started = performance.now();
    readAskedAnswer(line, 'hashes');
    askedFormatOf(line);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe("verl's GSM8K rule", () => {
  it('reads the last `#### N` of the last 300 characters, compared as written', () => {
    expect(verlGsm8kAnswer('#### 1,234')).toBe('1234');
    expect(verlGsm8kAnswer(`#### 6\n${'x'.repeat(400)}`)).toBeNull();
    expect(verlGsm8kAnswer('#### $17')).toBeNull();
    expect(verlGsm8kEqual('17.00', '17')).toBe(false);
    expect(verlGsm8kEqual('17', '17')).toBe(true);
  });
});

describe('templates and group names', () => {
  it('reads the R1-Zero plain-text dialogue like a chat template', () => {
    const read = readPrompt('A conversation between User and Assistant. The answer is enclosed within <answer> </answer> tags.\nUser: What is 2+3?\nAssistant: <think>');
    expect(read.question).toBe('What is 2+3?');
    expect(read.reading.template).toBe('r1-zero');
    expect(read.reading.system).toMatch(/^A conversation/);
  });

  it('names groups without the instruction every question shares', () => {
    const tail = " Let's think step by step and output the final answer after `####`.";
    const names = groupNamesOf([
      { group: 'a', question: `Tom has 3 apples. How many now?${tail}` },
      { group: 'b', question: `Ann runs 5 km a day. How far in a week?${tail}` },
    ]);
    expect(names.get('a')).toBe('Tom has 3 apples. How many now?');
    expect(names.get('b')).toBe('Ann runs 5 km a day. How far in a week?');
    // One group: nothing is known to be shared, the question is kept whole.
    expect(groupNamesOf([{ group: 'a', question: `Q?${tail}` }]).get('a')).toBe(`Q?${tail}`);
  });
});
