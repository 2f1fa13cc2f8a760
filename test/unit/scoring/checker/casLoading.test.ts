/** The CAS costs about half a second to load: only claims that need it may trigger that. */
import { describe, expect, it } from 'vitest';
import { casIfLoaded } from '../../../../src/core/cas';
import { createCheckerScorer } from '../../../../src/scoring/checker/checkerScorer';

describe('checker and the CAS (in this order: the engine stays loaded once loaded)', () => {
  it('does not load the CAS for plain arithmetic and LaTeX fractions', async () => {
    const steps = ['$\\frac{1}{2} + \\frac{1}{3} = \\frac{5}{6}$', '5 / 0 = 3', '12 × 7 = 84'];
    const [r] = await createCheckerScorer().score([{ id: 0, prompt: '', steps }]);
    expect(r).toMatchObject({ scores: [0.9, 0.9, 0.9], notes: [expect.stringMatching(/^checked: /), null, 'checked: 12 × 7 = 84'] });
    expect(casIfLoaded()).toBeNull();
  });

  it('leaves surds unchecked when the CAS is turned off', async () => {
    const [r] = await createCheckerScorer({ useCas: false }).score([{ id: 0, prompt: '', steps: ['$\\sqrt{8} = 3\\sqrt{2}$'] }]);
    expect(r).toMatchObject({ scores: [0.9], notes: [null] });
    expect(casIfLoaded()).toBeNull();
  });

  it('loads the CAS for surds and decides them', async () => {
    const steps = ['$\\sqrt{8} = 2\\sqrt{2}$', '$\\sqrt{8} = 3\\sqrt{2}$'];
    const [r] = await createCheckerScorer().score([{ id: 0, prompt: '', steps }]);
    expect(r).toMatchObject({ scores: [0.9, 0.05], notes: ['checked: \\sqrt{8} = 2\\sqrt{2}', expect.stringMatching(/is false/)] });
    expect(casIfLoaded()).not.toBeNull();
  });
});
