import { describe, expect, it } from 'vitest';
import { analyseText, MAX_AGREEMENT_GRADED } from '../../../../src/scoring/analysis/analyse';
import { gradingAgreementText } from '../../../../src/core/presentation/outcomeWords';

/** A verl-shaped dump asking for `####`, with gold and score; every third score disagrees with the answer. */
function dump(rows: number): string {
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    const input = `user\nQuestion ${i % 50}: what is ${i % 50} + 1? Output the final answer after "####".\nassistant\n`;
    lines.push(JSON.stringify({ input, output: `It is ${(i % 50) + 1}.\n#### ${(i % 50) + 1}`, gts: String((i % 50) + 1), score: i % 3 === 0 ? 0 : 1 }));
  }
  return lines.join('\n') + '\n';
}

describe('grading checked against the outcomes a file states', () => {
  it('counts agreement and names the first rollouts that differ', async () => {
    const a = await analyseText(dump(30), { fileName: 'small.jsonl', scorer: 'checker' });
    const g = a.report.gradingAgreement!;
    expect(g).toMatchObject({ graded: 30, of: 30, agrees: 20 });
    expect(g.disagreeing.map((d) => d.line)).toEqual([1, 4, 7, 10, 13]);
    expect(gradingAgreementText(g)).toBe('graded 30 answers against the gold: agrees with the file\'s outcome on 20 (66.7%); differs first at line 1, line 4, line 7, line 10, line 13');
  });

  it('on a large dump grades a sample, the file\'s first answers, and says so', async () => {
    const rows = MAX_AGREEMENT_GRADED + 500;
    const a = await analyseText(dump(rows), { fileName: 'large.jsonl', scorer: 'checker' });
    const g = a.report.gradingAgreement!;
    expect(g.graded).toBe(MAX_AGREEMENT_GRADED);
    expect(g.of).toBe(rows);
    expect(gradingAgreementText(g)).toContain(`graded 2,048 answers (the file's first, of 2,548) against the gold`);
    // The outcomes stay the file's own, sampled or not.
    expect(a.report.outcomes.incorrect).toBe(Math.ceil(rows / 3));
  }, 60_000);
});
