import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyseText } from '../../../../src/scoring/analysis/analyse';

describe('the analysis pipeline', () => {
  it('no rollout is lost between input and decisions, whatever the mix of formats and bad lines', async () => {
    const flat = fc.record({ uid: fc.constantFrom('a', 'b', 'c'), prompt: fc.string(), response: fc.string(), score: fc.constantFrom(1, 0, 0.5, null, 'x'), step_scores: fc.option(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 })) });
    const grouped = fc.record({ problem: fc.string(), responses: fc.array(fc.string(), { maxLength: 9 }), score: fc.array(fc.constantFrom(0, 1), { maxLength: 9 }) });
    const line = fc.oneof(
      flat.map((r) => ({ text: JSON.stringify(r), rollouts: 1 })),
      grouped.map((r) => ({ text: JSON.stringify(r), rollouts: r.responses.length })),
      fc.constantFrom({ text: '{"broken": ', rollouts: 0 }, { text: '[1,2]', rollouts: 0 }, { text: '', rollouts: 0 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 25 }), async (lines) => {
        const analysis = await analyseText(lines.map((l) => l.text).join('\n'), { fileName: 'x.jsonl', scorer: 'file' });
        const expected = lines.reduce((n, l) => n + l.rollouts, 0);
        expect(analysis.rollouts.length).toBe(expected);
        expect(analysis.report.rollouts).toBe(expected);
        expect(analysis.report.kept + analysis.report.dropped).toBe(expected);
        expect(new Set(analysis.rollouts.map((r) => r.id)).size).toBe(expected);
        for (const r of analysis.rollouts) expect(r.decision.id).toBe(r.id);
      }),
      { numRuns: 60 },
    );
  });

  it('grades outcomes from the answer when the file has none, and says how', async () => {
    const lines = [
      { prompt: 'Q', response: 'a\n\nSo \\boxed{\\frac{1}{2}}', answer: '0.5' },
      { prompt: 'Q', response: 'b\n\nThe answer is 3.', answer: '0.5' },
      { prompt: 'Q', response: 'no answer at all', answer: '0.5' },
      { prompt: 'Q', response: 'c\n\n\\boxed{2}' },
    ];
    const a = await analyseText(lines.map((l) => JSON.stringify(l)).join('\n'), { fileName: 'x.jsonl' });
    expect(a.rollouts.map((r) => [r.outcome.kind, r.outcome.source, r.outcome.extracted])).toEqual([
      ['correct', 'graded', '\\frac{1}{2}'],
      ['incorrect', 'graded', '3'],
      ['unknown', 'none', null],
      ['unknown', 'none', '2'],
    ]);
    expect(a.rollouts[2]!.decision.reason).toBe('not-ranked-no-outcome');
  });

  it('the checker scores rollouts without file scores and notes what it checked', async () => {
    const text = [
      JSON.stringify({ uid: 'g', prompt: 'Q', response: 'We know 12 × 7 = 84.\n\nThen 84 + 6 = 91.\n\n\\boxed{91}', answer: '91' }),
      JSON.stringify({ uid: 'g', prompt: 'Q', response: 'Think about it.\n\n\\boxed{90}', answer: '91', step_scores: [0.9, 0.8] }),
    ].join('\n');
    const a = await analyseText(text, { fileName: 'x.jsonl' });
    const [checked, filed] = a.rollouts;
    expect(checked!.scorer).toBe('checker');
    expect(checked!.stepScores[0]).toBe(0.9);
    expect(checked!.stepNotes[0]).toBe('checked: 12 × 7 = 84');
    expect(checked!.stepScores[2]).toBe(0.9);
    expect(checked!.stepScores[1]).toBeLessThan(0.1);
    expect(checked!.stepNotes[1]).toMatch(/84 \+ 6 = 91 is false \(90\)/);
    expect(checked!.firstLowStep).toBe(1);
    expect(checked!.falsePositive.rules).toContain('weak-step');
    expect(filed!.scorer).toBe('file');
    expect(filed!.stepScores).toEqual([0.9, 0.8]);
  });

  it('raw step offsets point at the step text inside the JSON line', async () => {
    const line = JSON.stringify({ prompt: 'P', response: 'He said "hi"\\n\n\nx = \\frac{1}{2} 😀\n\nEnd', answer: '1' });
    const a = await analyseText(line, { fileName: 'x.jsonl' });
    const r = a.rollouts[0]!;
    r.rawSteps!.forEach((span, i) => expect(JSON.parse(`"${line.slice(span.start, span.end)}"`)).toBe(r.steps[i]!.text));
  });

  it('invalid settings are refused with the setting named', async () => {
    await expect(analyseText('', { fileName: 'x', settings: { m: -1 } })).rejects.toThrow(/m must be an integer ≥ 0/);
  });
});
