/**
 * Outcomes: what the file states, else the extracted final answer graded against the gold. A
 * harness's own numeric `pred` is compared the way the harness compares it (`harness.ts`).
 * The grader (and its CAS) is loaded only when some rollout needs grading.
 */
import type { Outcome, Rollout } from '../core/model';
import { finalAnswer } from '../core/answer/finalAnswer';
import { loadAnswerGrader, type AnswerGrader } from '../core/answer/grade';
import { harnessNumericEqual } from '../core/answer/harness';

export class OutcomeResolver {
  private grader: Promise<AnswerGrader> | null = null;

  /**
   * Outcomes for a batch, aligned with the input. The answer is extracted for display only when
   * `extractAlways` is set; otherwise only when it must be graded.
   */
  async resolve(rollouts: readonly Rollout[], options: { extractAlways: boolean }): Promise<Outcome[]> {
    const out: Outcome[] = [];
    for (const r of rollouts) {
      if (!options.extractAlways && r.fileOutcome.kind !== 'unknown') {
        out.push(r.fileOutcome);
        continue;
      }
      const answer = finalAnswer(r.response, r.filePred ?? null);
      const found = answer ? { extracted: answer.text, answerFrom: answer.from } : { extracted: null };
      if (r.fileOutcome.kind !== 'unknown') {
        out.push({ ...r.fileOutcome, ...found });
      } else if (r.gold === null || answer === null) {
        out.push({ kind: 'unknown', source: 'none', ...found });
      } else if (answer.from === 'pred' && harnessNumericEqual(answer.text, r.gold) !== null) {
        // The harness's own answer, compared the way the harness compares numbers.
        out.push({ kind: harnessNumericEqual(answer.text, r.gold) ? 'correct' : 'incorrect', source: 'graded', ...found });
      } else {
        const grader = await (this.grader ??= loadAnswerGrader({ cache: true }));
        const verdict = grader.grade(answer.text, r.gold);
        const kind = verdict.equal === null ? 'unknown' : verdict.equal ? 'correct' : 'incorrect';
        out.push({ kind, source: verdict.equal === null ? 'none' : 'graded', ...found });
      }
    }
    return out;
  }
}
