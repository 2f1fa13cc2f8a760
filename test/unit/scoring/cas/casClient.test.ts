/**
 * The CAS worker on its budget, as a user meets it: a task that would run for minutes is "not
 * decided" with the reason, in about the budget; the tasks after it in the same batch are still
 * decided (by a fresh worker); a batch is one request. Runs the built `dist/casWorker.js`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CasTask } from '../../../../src/core/cas/casService';
import { CasClient } from '../../../../src/scoring/cas/casClient';

const client = new CasClient({ budgetMs: 1000 });
afterAll(() => client.dispose());

const value = (latex: string): CasTask => ({ kind: 'value', latex });
const equal = (pred: string, gold: string): CasTask => ({ kind: 'equal', pred: { text: pred, isPercent: false }, gold: { text: gold, isPercent: false } });

describe('the CAS worker on a budget', () => {
  it('decides ordinary tasks: values and answer equivalence', async () => {
    const results = await client.run([value('\\sqrt{8}'), equal('(x-1)(x+1)', 'x^2-1'), equal('\\frac{\\pi}{3}', '\\frac{\\pi}{6}')]);
    expect(results[0]).toMatchObject({ kind: 'value' });
    expect((results[0] as { value: number }).value).toBeCloseTo(2.828427, 5);
    expect(results.slice(1)).toEqual([{ kind: 'equal', equal: true }, { kind: 'equal', equal: false }]);
  });

  it('stops a task that overruns its budget, names it, and decides the rest of the batch', async () => {
    // A double sum of 10^8 terms passes the screen (each bound is under 10,000) and runs for minutes.
    const slow = '\\sum_{n=1}^{9999}\\sum_{m=1}^{9999} nm';
    const started = performance.now();
    const results = await client.run([value('\\sqrt{2}'), value(slow), value('\\sqrt{9}'), equal('0.5', '\\frac{1}{2}')]);
    const seconds = (performance.now() - started) / 1000;
    expect(results[1]).toEqual({ kind: 'not-decided', reason: expect.stringMatching(/took more than the algebra system's 1000 ms budget/) });
    expect((results[1] as { reason: string }).reason).toContain('\\sum_{n=1}^{9999}');
    expect((results[0] as { value: number }).value).toBeCloseTo(Math.SQRT2, 9);
    expect((results[2] as { value: number }).value).toBe(3);
    expect(results[3]).toEqual({ kind: 'equal', equal: true });
    // The budget, a restart (loading the engine again) and the rest: seconds, not minutes.
    expect(seconds).toBeLessThan(20);
  });

  it('screens what reaches the worker too: a tower is refused without being parsed', async () => {
    const started = performance.now();
    const [result] = await client.run([value('9^{9^{9^{9}}}')]);
    expect(result).toEqual({ kind: 'not-decided', reason: expect.stringMatching(/power tower/) });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('rejects a cancelled batch', async () => {
    const controller = new AbortController();
    const pending = client.run([value('\\sum_{n=1}^{9999}\\sum_{m=1}^{9999} nm')], controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(await client.run([value('\\sqrt{16}')])).toEqual([{ kind: 'value', value: 4 }]);
  });
});
