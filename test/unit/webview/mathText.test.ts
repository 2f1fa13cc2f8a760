import { describe, expect, it } from 'vitest';
import { MAX_FORMULAS, MAX_FORMULA_LENGTH, hasFormula, looksLikeTex, splitMath, type TextPart } from '../../../webview/mathText';

const joined = (parts: TextPart[]): string => parts.map((p) => (p.kind === 'text' ? p.text : p.source)).join('');
const maths = (text: string): string[] => splitMath(text).flatMap((p) => (p.kind === 'math' ? [p.tex] : []));

describe('splitting text into plain runs and formulas', () => {
  it('finds the four delimiters and says which are display math', () => {
    const parts = splitMath('a $x^2$ b $$\\frac{1}{2}$$ c \\(y\\) d \\[z\\] e');
    expect(parts.filter((p) => p.kind === 'math').map((p) => p.kind === 'math' && [p.tex, p.isDisplay])).toEqual([
      ['x^2', false], ['\\frac{1}{2}', true], ['y', false], ['z', true],
    ]);
  });

  it('a text of 100k unclosed openers is split in linear time (it searched to the end once per opener)', () => {
    const text = `${'\\[ \\( '.repeat(50_000)} and $x$`;
    const started = performance.now();
    const parts = splitMath(text);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(joined(parts)).toBe(text);
    expect(maths(text)).toEqual(['x']);
  });

  it('always gives the input back when the parts are joined', () => {
    for (const text of ['', 'plain', '$a$', 'costs $5 and $10', '$$ unclosed', '\\$ not math $', 'a $b\n\nc$ d', '<script>$x$</script>']) {
      expect(joined(splitMath(text)), text).toBe(text);
    }
  });

  it('leaves prices and escaped dollars alone', () => {
    expect(maths('It costs $5 and $10.')).toEqual([]);
    expect(maths('from $ 5 to $ 6')).toEqual([]);
    expect(maths('\\$3 is \\$3')).toEqual([]);
    expect(maths('a paragraph $x\n\ny$')).toEqual([]);
  });

  it('keeps markup in plain runs as text (rendering puts text runs in text nodes)', () => {
    const parts = splitMath('<img src=x onerror=alert(1)> and $\\href{javascript:alert(1)}{x}$');
    expect(parts[0]).toEqual({ kind: 'text', text: '<img src=x onerror=alert(1)> and ' });
    expect(parts[1]).toMatchObject({ kind: 'math', tex: '\\href{javascript:alert(1)}{x}' });
  });

  it('shows over-long formulas and formulas past the limit as source text', () => {
    const long = `$${'x+'.repeat(MAX_FORMULA_LENGTH)}$`;
    expect(maths(long)).toEqual([]);
    const many = Array.from({ length: MAX_FORMULAS + 5 }, (_, i) => `$x_${i}$`).join(' ');
    expect(maths(many)).toHaveLength(MAX_FORMULAS);
    expect(joined(splitMath(many))).toBe(many);
  });
});

describe('answers worth typesetting whole', () => {
  it('TeX-looking answers yes, plain numbers and words no', () => {
    expect(looksLikeTex('\\frac{1}{2}')).toBe(true);
    expect(looksLikeTex('x^2')).toBe(true);
    expect(looksLikeTex('42')).toBe(false);
    expect(looksLikeTex('<img src=x>')).toBe(false);
  });
});

describe('whether a first paint needs the typesetter (it is fetched only then)', () => {
  it('a GSM8K-style group with prices and plain numbers does not', () => {
    const prompt = 'Natalia sold clips to 48 of her friends in April, at $5 each and $10 for two. How many clips did she sell?';
    expect(hasFormula({ texts: [prompt, 'She sold 48/2 = <<48/2=24>>24 clips in May.'], answers: ['72', null, ''] })).toBe(false);
  });

  it('a formula in any text, or an answer that reads as TeX, does', () => {
    expect(hasFormula({ texts: ['plain', 'Solve $x^2 = 4$.'], answers: ['2'] })).toBe(true);
    expect(hasFormula({ texts: ['plain'], answers: ['\\frac{1}{2}'] })).toBe(true);
    expect(hasFormula({ texts: ['a display \\[y\\] formula'], answers: [] })).toBe(true);
  });
});
