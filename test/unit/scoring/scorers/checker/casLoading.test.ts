/**
 * The CAS costs a worker thread and half a second to load: only claims that need it may reach it,
 * and those of a batch go in one request.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CasResult, CasService, CasTask } from '../../../../../src/core/cas/casService';
import { CasClient } from '../../../../../src/scoring/cas/casClient';
import { createCheckerScorer } from '../../../../../src/scoring/scorers/checker/checkerScorer';

const client = new CasClient();
const requests: CasTask[][] = [];
/** The real CAS worker, with a record of what was asked of it. */
const cas: CasService = {
  run(tasks: readonly CasTask[], signal?: AbortSignal): Promise<CasResult[]> {
    requests.push([...tasks]);
    return client.run(tasks, signal);
  },
};

afterAll(() => client.dispose());

describe('checker and the CAS', () => {
  it('does not ask the CAS about plain arithmetic and LaTeX fractions', async () => {
    const steps = ['$\\frac{1}{2} + \\frac{1}{3} = \\frac{5}{6}$', '5 / 0 = 3', '12 × 7 = 84'];
    const [r] = await createCheckerScorer({ cas }).score([{ id: 0, prompt: '', steps }]);
    expect(r).toMatchObject({ scores: [0.9, 0.9, 0.9], notes: [expect.stringMatching(/^checked: /), null, 'checked: 12 × 7 = 84'] });
    expect(requests).toEqual([]);
  });

  it('leaves surds unchecked when the CAS is turned off', async () => {
    const [r] = await createCheckerScorer({ useCas: false, cas }).score([{ id: 0, prompt: '', steps: ['$\\sqrt{8} = 3\\sqrt{2}$'] }]);
    expect(r).toMatchObject({ scores: [0.9], notes: [null] });
    expect(requests).toEqual([]);
  });

  it('decides the surds of every item in one request, each distinct side once', async () => {
    const items = [
      { id: 0, prompt: '', steps: ['$\\sqrt{8} = 2\\sqrt{2}$', '$\\sqrt{8} = 3\\sqrt{2}$'] },
      { id: 1, prompt: '', steps: ['$\\sqrt{8} = 2\\sqrt{2}$'] },
    ];
    const [a, b] = await createCheckerScorer({ cas }).score(items);
    expect(a).toMatchObject({ scores: [0.9, 0.05], notes: ['checked: \\sqrt{8} = 2\\sqrt{2}', expect.stringMatching(/is false/)] });
    expect(b).toMatchObject({ scores: [0.9] });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.map((t) => (t.kind === 'value' ? t.latex : ''))).toEqual(['\\sqrt{8}', '2\\sqrt{2}', '3\\sqrt{2}']);
  });
});
