/**
 * Regexes and scans over file text stay linear on the inputs that made them quadratic: each case
 * below took from seconds to minutes before (figures in the README's limits section) and now takes
 * milliseconds; the bound asserted is generous, for a loaded machine. Results are checked too, so a
 * fix that dropped the work would fail.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer } from '../../../src/core/answer/extract';
import { findBoxes } from '../../../src/core/answer/boxed';
import { gradeFast } from '../../../src/core/answer/gradeAnswer';
import { splitSteps } from '../../../src/core/steps/splitSteps';
import { validateSettings, resolveSettings } from '../../../src/core/profSettings';
import { finalLineAnswer } from '../../../src/core/formats/labelled';
import { judgeStep } from '../../../src/scoring/scorers/checker/stepCheck';

const BOUND_MS = 3000;

function timed<T>(f: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = f();
  return { value, ms: performance.now() - started };
}

describe('answer extraction on hostile responses', () => {
  it('"So the answer is 5" followed by 300k spaces', () => {
    const { value, ms } = timed(() => extractAnswer(`So the answer is 5${' '.repeat(300_000)}`));
    expect(value).toMatchObject({ text: '5', method: 'the-answer-is' });
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it('50k unclosed boxes, and 100k backslashes', () => {
    const boxes = timed(() => findBoxes('\\boxed{'.repeat(50_000)));
    expect(boxes.value).toHaveLength(50_000);
    expect(boxes.value[0]?.contentEnd).toBe(50_000 * 7);
    const slashes = timed(() => extractAnswer(`${'\\'.repeat(100_000)} The answer is 7.`));
    expect(slashes.value?.text).toBe('7');
    expect(boxes.ms + slashes.ms).toBeLessThan(BOUND_MS);
  });

  it('160k distinct boxes joined into one answer', () => {
    const text = Array.from({ length: 160_000 }, (_, i) => `\\boxed{${i}}`).join(' ');
    const { value, ms } = timed(() => extractAnswer(text));
    expect(value?.text.split(', ')).toHaveLength(160_000);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it('boxes still close where they did: nested, escaped and double-backslashed', () => {
    const text = 'a \\\\boxed{x^{2}} b \\boxed{\\{1\\}} c \\boxed{\\frac{1}{2}';
    expect(findBoxes(text).map((b) => text.slice(b.contentStart, b.contentEnd))).toEqual(['x^{2}', '\\{1\\}', '\\frac{1}{2}']);
    expect(findBoxes(text)[0]?.boxStart).toBe(2);
  });

  it('a boxed answer of 100k nested brackets is not parsed (over the answer length limit)', () => {
    const { value, ms } = timed(() => gradeFast(`\\boxed{${'('.repeat(50_000)}1${')'.repeat(50_000)}}`, '1'));
    expect(value).toEqual({ equal: false, method: 'no-answer' });
    expect(ms).toBeLessThan(BOUND_MS);
  });
});

describe('gold answers of keyed solutions (GSM8K `A:` / `####` lines)', () => {
  it('a marker line of 1M spaces followed by more text (cubic before: 10k spaces took 154 s)', () => {
    const { value, ms } = timed(() => finalLineAnswer(`A: ${' '.repeat(1_000_000)}x\n\ny`));
    expect(value).toBe(`A: ${' '.repeat(1_000_000)}x\n\ny`.trim());
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it.each([
    ['a\nA: 18', '18'], ['#### 18\n', '18'], ['A:\n\n18', '18'], ['A: 18 dollars', '18 dollars'],
    ['#### 18\n\nsome trailing', '#### 18\n\nsome trailing'], ['A: 1\nA: 2', '2'], ['no marker', 'no marker'],
  ])('reads %j as %j, as before', (text, gold) => expect(finalLineAnswer(text)).toBe(gold));
});

describe('step splitting on hostile responses', () => {
  it('step markers over 100k newlines', () => {
    const { value, ms } = timed(() => splitSteps(`a${'\n'.repeat(100_000)}b`, 'step-markers'));
    expect(value.map((s) => s.text)).toEqual(['a', 'b']);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it('step markers after blank lines still start steps', () => {
    expect(splitSteps('intro\n\n\n  Step 1: a\n\nStep 2. b', 'step-markers').map((s) => s.text)).toEqual(['intro', 'Step 1: a', 'Step 2. b']);
  });

  it('a catastrophic user pattern, (a+)+$, runs in linear time on RE2 with the same matches', () => {
    const text = `${'a'.repeat(50_000)}b\nxx aaa`;
    const { value, ms } = timed(() => splitSteps(text, 'regex:(a+)+$'));
    expect(value.map((s) => s.text)).toEqual([`${'a'.repeat(50_000)}b\nxx`]);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it('user patterns keep UTF-16 offsets, so steps are tinted in place', () => {
    const text = 'αβ😀 one ки two ки';
    const steps = splitSteps(text, 'regex:\\s*ки\\s*');
    expect(steps.map((s) => [s.text, text.slice(s.start, s.end)])).toEqual([['αβ😀 one', 'αβ😀 one'], ['two', 'two']]);
  });

  it('a pattern RE2 cannot express is refused with a message saying why', () => {
    const problems = validateSettings(resolveSettings({ split: 'regex:(a)\\1' }));
    expect(problems).toEqual([expect.stringMatching(/the split pattern "\(a\)\\\\1" cannot be used: invalid escape sequence .*RE2/)]);
    expect(validateSettings(resolveSettings({ split: 'regex:(?i)step \\d+:' }))).toEqual([]);
  });
});

describe('the checker on hostile steps', () => {
  it.each([
    ['50k unclosed $a', `1 = ${'$a '.repeat(50_000)}`],
    ['100k unclosed \\[', `1 = 1 ${'\\['.repeat(100_000)}`],
    ['30k nested braces in math', `$${'{'.repeat(30_000)}1${'}'.repeat(30_000)} = 1$`],
    ['20k nested parentheses', `${'('.repeat(20_000)}1${')'.repeat(20_000)} = 1`],
    ['a 4,000-digit number', `1 = ${'1'.repeat(4000)}`],
    ['a 40k-group comma chain that is not a number', `1 = 1${',000'.repeat(40_000)}1`],
    ['40k \\frac commands in one side', `$1${'\\frac12'.repeat(40_000)} = 1$`],
  ])('%s: judged in time, never throwing', (_, step) => {
    const { value, ms } = timed(() => judgeStep(step));
    expect(value.every((j) => j.verdict.status !== 'false')).toBe(true);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it('thousands groups still read as one number, and a chain that is not one as several', () => {
    expect(judgeStep('1,000 + 2,500 = 3,500').map((j) => j.verdict.status)).toEqual(['holds']);
    expect(judgeStep('So 1,0001 = 5').map((j) => j.verdict.status)).not.toContain('holds');
  });

  it('math spans are still found after a run of unclosed openers', () => {
    const judged = judgeStep(`$a $b\n\n${'\\[ '.repeat(1000)} so $2 + 2 = 5$ and $a$`);
    expect(judged.map((j) => j.verdict.status)).toContain('false');
  });
});
