/**
 * Step scores a file holds must be numbers in [0, 1] (or null for a step not scored). Before,
 * `1e309` (read as Infinity), `true` and `"1e999"` made the whole list unreadable, so the checker
 * scored the rollout instead, silently, in a group PRM-scored otherwise; `[1e308, 1e308]` was
 * read, and its mean was Infinity (written as `null` in the decisions). Now each is a named
 * problem of its rollout, which is not scored, and every aggregate stays finite.
 */
import { describe, expect, it } from 'vitest';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { readScores } from '../../../../src/core/formats/fields';

const line = (scores: string, score = 1): string => `{"prompt": "p", "response": "a\\n\\nb", "score": ${score}, "step_scores": ${scores}}`;

describe('step scores from the file', () => {
  it.each([
    ['[1e309, 0.5]', /step_scores\[0\] is Infinity/],
    ['[true, 0.5]', /step_scores\[0\] is true/],
    ['["1e999", 0.5]', /step_scores\[0\] is "1e999"/],
    ['[1e308, 1e308]', /step_scores\[0\] is 1e\+308/],
    ['[0.5, -0.25]', /step_scores\[1\] is -0.25/],
  ])('%s: a named problem of that rollout, not scored by the checker instead', async (scores, message) => {
    const text = [line(scores), line('[0.25, 0.75]', 0), line('[0.5, 0.5]')].join('\n');
    const analysis = await analyseText(text, { fileName: 'x.jsonl' });
    const [bad, ...good] = analysis.rollouts;
    expect(bad).toMatchObject({ scorer: 'file', isScored: false, unscoredReason: expect.stringMatching(message) });
    expect(bad!.decision.reason).toBe('not-ranked-no-scores');
    expect(analysis.diagnostics).toContainEqual(expect.objectContaining({ line: 1, code: 'bad-step-scores', severity: 'warning', message: expect.stringMatching(message) }));
    expect(good.map((r) => r.scorer)).toEqual(['file', 'file']);
    for (const r of good) expect(Number.isFinite(r.decision.consistency)).toBe(true);
    expect(analysis.report.scorers).toEqual({ file: 3 });
  });

  it('numbers in [0, 1], numeric strings and null are read as before, the plain list without a copy', () => {
    const plain = [0, 0.5, null, 1];
    expect(readScores(plain, 'step_scores').scores).toBe(plain);
    expect(readScores(['0.25', null], 'step_scores')).toEqual({ scores: [0.25, null] });
    expect(readScores('not a list', 'values')).toEqual({ scores: null });
  });

  it('a grouped line names the response', async () => {
    const text = '{"prompt": "p", "responses": ["a", "b"], "score": [1, 0], "step_scores": [[0.5], [2]]}';
    const analysis = await analyseText(text, { fileName: 'x.jsonl' });
    expect(analysis.diagnostics.map((d) => d.message)).toContainEqual(expect.stringMatching(/, response 2: step_scores\[1\]\[0\] is 2, not a number in \[0, 1\] or null/));
  });
});
