/**
 * What the analysis worker hands the host for the Rollout View and the panels is bounded: a
 * hostile line with a 200 MB response must not reach the extension host whole.
 */
import { describe, expect, it } from 'vitest';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { MAX_DETAIL_STEP_CHARS, MAX_DETAIL_TEXT_CHARS, rolloutDetails } from '../../../../src/scoring/analysis/rolloutDetails';

async function detailOf(prompt: string, response: string) {
  const text = JSON.stringify({ prompt, response, answer: '4', score: 1, step_scores: response.split('\n\n').map(() => 0.9) });
  const analysis = await analyseText(text, { fileName: 'long.jsonl', scorer: 'file' });
  const [detail] = await rolloutDetails({ analysis, disk: null }, [0]);
  return detail!;
}

describe('rollout details sent to the host', () => {
  it('keep ordinary rollouts exactly as they are', async () => {
    const detail = await detailOf('What is 2 + 2?', 'We add.\n\n2 + 2 = 4\n\nThe answer is \\boxed{4}.');
    expect(detail.prompt).toBe('What is 2 + 2?');
    expect(detail.steps.map((s) => s.text)).toEqual(['We add.', '2 + 2 = 4', 'The answer is \\boxed{4}.']);
  });

  it('cut a huge prompt and step, and say how much was left out', async () => {
    const step = 'x'.repeat(MAX_DETAIL_TEXT_CHARS + 12_345);
    const detail = await detailOf('p'.repeat(MAX_DETAIL_TEXT_CHARS * 3), `Short first step.\n\n${step}\n\nThe answer is \\boxed{4}.`);
    expect(detail.prompt.length).toBeLessThan(MAX_DETAIL_TEXT_CHARS + 300);
    expect(detail.prompt).toMatch(/400,000 more characters of this prompt not shown/);
    expect(detail.steps[0]!.text).toBe('Short first step.');
    expect(detail.steps[1]!.text).toMatch(/12,345 more characters of this step not shown/);
    expect(detail.steps[2]!.text).toBe('The answer is \\boxed{4}.');
    expect(detail.response.length).toBeLessThan(MAX_DETAIL_TEXT_CHARS + 300);
  });

  it('stop sending step texts once a rollout has sent its budget, and name the steps left out', async () => {
    const steps = Array.from({ length: 30 }, (_, i) => `${i}:`.padEnd(MAX_DETAIL_TEXT_CHARS - 10, 'y'));
    const detail = await detailOf('q', steps.join('\n\n'));
    const sent = detail.steps.reduce((n, s) => n + s.text.length, 0);
    expect(detail.steps).toHaveLength(30);
    expect(sent).toBeLessThan(MAX_DETAIL_STEP_CHARS + 30 * 300);
    expect(detail.steps[29]!.text).toMatch(/step not shown: the steps before it already fill 2,000,000 characters/);
  });
});
