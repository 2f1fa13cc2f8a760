/** Group names shortened for tab titles and table cells, and questions named as the analysis names its groups. */
import { describe, expect, it } from 'vitest';
import { groupNamesOf, questionNamer, shortGroupName } from '../../../../src/core/presentation/groupNames';

describe('a group name shortened', () => {
  it('kept whole when it fits, on one line', () => {
    expect(shortGroupName('What is\n 2 + 3?', 'g1', 40)).toBe('What is 2 + 3?');
  });

  it('cut after a whole word with an ellipsis, within the limit', () => {
    const short = shortGroupName('Omar bakes 6 trays of cookies with 8 cookies on each tray. How many are left?', 'gsm-02', 40);
    expect(short).toBe('Omar bakes 6 trays of cookies with 8…');
    expect(short.length).toBeLessThanOrEqual(40);
  });

  it('the punctuation a cut ends on is dropped before the ellipsis', () => {
    expect(shortGroupName('Omar bakes 6 trays of cookies with 8 cookies on each tray. Omar gives away 19 cookies.', 'gsm-02', 60)).toBe('Omar bakes 6 trays of cookies with 8 cookies on each tray…');
  });

  it('cut inside a word when no word ends in the last third (one long token)', () => {
    const short = shortGroupName(`x${'9'.repeat(100)}`, 'g1', 20);
    expect(short).toBe(`x${'9'.repeat(18)}…`);
  });

  it('never splits a surrogate pair', () => {
    const short = shortGroupName(`${'a'.repeat(18)}😀😀😀`, 'g1', 20);
    expect(short).toBe(`${'a'.repeat(18)}…`);
  });

  it('the id when there is no name', () => {
    expect(shortGroupName('', 'gsm-02', 40)).toBe('gsm-02');
    expect(shortGroupName(undefined, 'g3', 40)).toBe('g3');
  });
});

describe('questions named one at a time', () => {
  it('the same names as groupNamesOf, the shared instruction taken away', () => {
    const tail = " Let's think step by step and output the final answer after \"####\".";
    const questions = ['Tom has 3 apples. How many now?', 'A train leaves at 9. When does it arrive?', 'Sum 2 and 2.'].map((q) => q + tail);
    const name = questionNamer(questions);
    const names = groupNamesOf(questions.map((question, i) => ({ group: `g${i}`, question })));
    expect(questions.map(name)).toEqual([...names.values()]);
    expect(name(questions[0]!)).toBe('Tom has 3 apples. How many now?');
  });
});
