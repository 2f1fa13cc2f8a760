/**
 * The answer-structure parser parses each bracket level once. It used to parse a bracket's inner
 * text twice per level, so the work doubled with each level: a 110-byte answer of 30 nested
 * brackets never finished (`grade`: 22 levels 12 s; `report` over 60 s). Answers nested deeper
 * than the limit are not graded, with the depth as the reason.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_DEPTH, nestingDepth, nestingProblem, parseAnswer } from '../../../../src/core/answer/structure';
import { gradeFast } from '../../../../src/core/answer/gradeAnswer';
import { createBoundedGrader } from '../../../../src/core/answer/boundedGrade';
import type { CasService } from '../../../../src/core/cas/casService';

const nested = (open: string, close: string, depth: number): string => `${open.repeat(depth)}1${close.repeat(depth)}`;

/** A CAS that must not be reached: every case here is decided (or refused) before it. */
const NO_CAS: CasService = { run: () => Promise.reject(new Error('the CAS was asked')) };

function timed<T>(f: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = f();
  return { value, ms: performance.now() - started };
}

describe('nested brackets in answers', () => {
  it.each([['(', ')'], ['[', ']'], ['\\{', '\\}']])('%s … nested up to the limit parse in milliseconds and still grade', (open, close) => {
    const { value, ms } = timed(() => gradeFast(`\\boxed{${nested(open, close, MAX_ANSWER_DEPTH)}}`, nested(open, close, MAX_ANSWER_DEPTH)));
    expect(value).toEqual({ equal: true, method: 'normalized' });
    // 20 levels took 2.7 s before (2^20 parses of the inner text).
    expect(ms).toBeLessThan(1000);
  });

  it('30 deep: not graded, the depth named, in milliseconds (the answer and the gold alike)', async () => {
    const grader = createBoundedGrader(NO_CAS);
    const started = performance.now();
    const [answer, gold] = await grader.gradeMany([
      { pred: `\\boxed{${nested('(', ')', 30)}}`, gold: '1' },
      { pred: '1', gold: nested('[', ']', 30) },
    ]);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(answer).toMatchObject({ equal: null, notDecided: `nested 30 deep (the limit is ${MAX_ANSWER_DEPTH})` });
    expect(gold).toMatchObject({ equal: null, notDecided: `the gold answer is nested 30 deep (the limit is ${MAX_ANSWER_DEPTH})` });
  });

  it('a 2,000-character answer nested 1,000 deep is bounded too (the parser stops at a depth)', () => {
    const { ms } = timed(() => parseAnswer(nested('(', ')', 999)));
    expect(ms).toBeLessThan(1000);
    expect(nestingProblem(nested('(', ')', 999))).toMatch(/nested 999 deep/);
  });

  it('shapes read as before: tuples, intervals, sets, a bracket around one thing', () => {
    expect(parseAnswer('((1))')).toEqual({ kind: 'atom', text: '1' });
    expect(parseAnswer('(1, (2, 3))')).toEqual({ kind: 'tuple', open: '(', close: ')', items: [{ kind: 'atom', text: '1' }, { kind: 'tuple', open: '(', close: ')', items: [{ kind: 'atom', text: '2' }, { kind: 'atom', text: '3' }] }] });
    expect(parseAnswer('[0, 1)')).toMatchObject({ kind: 'tuple', open: '[', close: ')' });
    expect(parseAnswer('\\{1, 2\\}')).toMatchObject({ kind: 'set', items: [{ kind: 'atom', text: '1' }, { kind: 'atom', text: '2' }] });
    expect(parseAnswer('(1,)')).toEqual({ kind: 'atom', text: '1,' });
    expect(nestingDepth('\\left(\\frac{\\sqrt{2}}{2}, 1\\right)')).toBe(3);
  });
});
