import { describe, expect, it } from 'vitest';
import { splitSteps } from '../../../../src/core/steps/splitSteps';

const texts = (r: string, rule = 'double-newline', explicit?: string[]): string[] => splitSteps(r, rule, explicit).map((s) => s.text);

describe('splitting steps', () => {
  it('default: split on blank lines, trim, drop empty pieces', () => {
    expect(texts('  a  \n\n\n\nb\n\n \n\nc ')).toEqual(['a', 'b', 'c']);
  });

  it('nothing left: the whole trimmed response is one step', () => {
    expect(texts('just one line')).toEqual(['just one line']);
    expect(texts('   ')).toEqual(['']);
  });

  it('offsets slice back to the step text', () => {
    const r = '\n\nFirst step.\n\n  Second step.  \n\nThird.';
    for (const s of splitSteps(r, 'double-newline')) expect(r.slice(s.start, s.end)).toBe(s.text);
  });

  it('other rules: newline, step markers, Math-Shepherd tags, a regex', () => {
    expect(texts('a\nb\n\nc', 'newline')).toEqual(['a', 'b', 'c']);
    expect(texts('Intro\nStep 1: x\nmore\nStep 2: y', 'step-markers')).toEqual(['Intro', 'Step 1: x\nmore', 'Step 2: y']);
    expect(texts('Step 1: a ки\nStep 2: b ки', 'ki')).toEqual(['Step 1: a', 'Step 2: b']);
    expect(texts('a;b;;c', 'regex:;+')).toEqual(['a', 'b', 'c']);
  });

  it('explicit steps are located in the response in order', () => {
    const steps = splitSteps('x\n\ny\n\nx', 'double-newline', ['x', 'y', 'x']);
    expect(steps.map((s) => [s.start, s.end])).toEqual([
      [0, 1],
      [3, 4],
      [6, 7],
    ]);
  });
});

describe('counting steps without building them', () => {
  it('agrees with splitSteps on awkward inputs', async () => {
    const { countSteps } = await import('../../../../src/core/steps/splitSteps');
    const fc = (await import('fast-check')).default;
    const piece = fc.constantFrom('a', ' ', '\n', '\n\n', 'ки', 'Step 1:', '\t', 'xyz');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.constantFrom('double-newline', 'newline', 'ki', 'step-markers'), (parts, rule) => {
        const text = parts.join('');
        expect(countSteps(text, rule)).toBe(splitSteps(text, rule).length);
      }),
    );
  });
});
