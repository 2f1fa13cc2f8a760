import { describe, expect, it } from 'vitest';
import { answerText, cleanNote, lastBoxed, parseIndex, readVerdict, verdictScoring, AFTER_FIRST_ERROR_NOTE } from '../../../../../src/scoring/scorers/critic/criticVerdict';
import { criticPrompt, CRITIC_PROMPT_VERSION } from '../../../../../src/scoring/scorers/critic/criticPrompt';

describe("reading a critic's answer", () => {
  it('takes the index in \\boxed{2} and the "Error:" sentence before it', () => {
    const verdict = readVerdict('Paragraph 0 is fine.\nError: 3 × 12 is 36, not 38.\n\n\\boxed{2}', 4);
    expect(verdict).toEqual({ kind: 'flagged', index: 2, explanation: '3 × 12 is 36, not 38.' });
  });

  it('reads \\boxed{-1} (and a typographic minus) as "no error"', () => {
    expect(readVerdict('All paragraphs hold up. \\boxed{-1}', 3)).toEqual({ kind: 'clean' });
    expect(readVerdict('\\boxed{−1}', 3)).toEqual({ kind: 'clean' });
  });

  it('reads the answer after long reasoning that mentions other indices', () => {
    const reasoning = Array.from({ length: 50 }, (_, i) => `Paragraph ${i % 5}: looks right; maybe index ${i}?`).join('\n');
    expect(readVerdict(`${reasoning}\nError: the sign flips.\nSo the answer is \\boxed{3}.`, 5)).toMatchObject({ kind: 'flagged', index: 3 });
  });

  it('drops <think> blocks, including a box inside them and a think opened by the chat template', () => {
    expect(readVerdict('<think>\nIt might be \\boxed{0}.\n</think>\n\nError: wrong sum.\n\\boxed{1}', 3)).toMatchObject({ kind: 'flagged', index: 1 });
    // Templates that open <think> in the prompt leave only the closing tag in the answer.
    expect(readVerdict('I think \\boxed{0}\n</think>\n\\boxed{-1}', 3)).toEqual({ kind: 'clean' });
    // An answer cut inside its reasoning has no answer at all.
    expect(readVerdict('\\boxed{1} <think> perhaps \\boxed{2}', 3)).toMatchObject({ kind: 'flagged', index: 1 });
    expect(answerText('<think>never closed \\boxed{2}')).toBe('');
  });

  it('takes the last of several boxes', () => {
    expect(readVerdict('First thought \\boxed{0}. On reflection: Error: 2 + 2 is 4.\n\\boxed{2}', 3)).toMatchObject({ kind: 'flagged', index: 2 });
  });

  it('says why an answer without a box, with an unclosed box or a non-number is unusable', () => {
    expect(readVerdict('The second paragraph is wrong.', 3)).toEqual({ kind: 'unparsable', reason: 'the answer has no \\boxed{} index' });
    expect(readVerdict('\\boxed{2', 3)).toMatchObject({ kind: 'unparsable', reason: expect.stringContaining('never closed') });
    expect(readVerdict('\\boxed{paragraph two}', 3)).toMatchObject({ kind: 'unparsable', reason: expect.stringContaining('not a paragraph index') });
  });

  it('refuses an index outside the paragraphs', () => {
    expect(readVerdict('\\boxed{3}', 3)).toEqual({ kind: 'unparsable', reason: 'the critic answered \\boxed{3}, but the paragraphs are numbered 0–2' });
    expect(readVerdict('\\boxed{-2}', 3)).toMatchObject({ kind: 'unparsable' });
  });

  it('accepts the spellings models use for an index', () => {
    expect(parseIndex('2')).toBe(2);
    expect(parseIndex(' \\text{2} ')).toBe(2);
    expect(parseIndex('$3$')).toBe(3);
    expect(parseIndex('paragraph_4')).toBe(4);
    expect(parseIndex('\\mathbf{-1}')).toBe(-1);
    expect(parseIndex('2, 3')).toBeNull();
    expect(lastBoxed('\\boxed{\\frac{1}{2}} and \\boxed{ {4} }')).toEqual({ inner: ' {4} ', start: 24 });
  });

  it('keeps the explanation one clean line: control and bidi characters out, cut at a word', () => {
    const verdict = readVerdict('Error: **3 × 12** is 36,\u202e not 38\u0007.\nSo the answer is\n\\boxed{0}', 2);
    expect(verdict).toEqual({ kind: 'flagged', index: 0, explanation: '3 × 12 is 36, not 38 .' });
    const long = cleanNote('word '.repeat(200));
    expect(long.length).toBeLessThanOrEqual(301);
    expect(long.endsWith('word…')).toBe(true);
  });

  it('falls back to the last paragraph before the box when there is no "Error:" sentence', () => {
    expect(readVerdict('Checked everything.\n\nThe total should be 36, not 38.\n\\boxed{1}', 2)).toMatchObject({ explanation: 'The total should be 36, not 38.' });
  });

  it('stays linear on hostile answers (many <think> tags, many boxes, deep braces)', () => {
    const hostile = '<think>'.repeat(100_000) + '\\boxed{'.repeat(100_000) + '{'.repeat(100_000);
    const started = performance.now();
    expect(readVerdict(hostile, 3).kind).toBe('unparsable');
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('verdict → step scores', () => {
  it('scores steps before the flagged one 1, the flagged one 0 with the reason, the rest not judged', () => {
    const scoring = verdictScoring({ kind: 'flagged', index: 1, explanation: '3 × 12 is 36, not 38.' }, 4, 'critic:v@m');
    expect(scoring).toEqual({
      kind: 'scored',
      scores: [1, 0, null, null],
      notes: [null, 'flagged by the critic: 3 × 12 is 36, not 38.', AFTER_FIRST_ERROR_NOTE, AFTER_FIRST_ERROR_NOTE],
      scorer: 'critic:v@m',
    });
  });

  it('scores every step 1 for −1, and says so when no reason was given', () => {
    expect(verdictScoring({ kind: 'clean' }, 3, 's')).toEqual({ kind: 'scored', scores: [1, 1, 1], scorer: 's' });
    expect(verdictScoring({ kind: 'flagged', index: 0, explanation: null }, 1, 's')).toMatchObject({ notes: ['flagged by the critic (no reason given)'] });
  });
});

describe('the critique prompt', () => {
  it('carries its version, the problem and the steps as paragraphs numbered from 0, and asks for \\boxed{}', () => {
    const prompt = criticPrompt('What is 2 + 2?', ['Add them.', 'So 4.']);
    expect(prompt.startsWith(`[${CRITIC_PROMPT_VERSION}]`)).toBe(true);
    expect(prompt).toContain('What is 2 + 2?');
    expect(prompt).toContain('<paragraph_0>\nAdd them.\n</paragraph_0>\n\n<paragraph_1>\nSo 4.\n</paragraph_1>');
    expect(prompt).toContain('\\boxed{-1}');
    expect(prompt).toContain('"Error:"');
  });
});
