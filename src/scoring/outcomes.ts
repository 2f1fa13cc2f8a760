/**
 * Outcomes: what the file states, else the extracted final answer graded against the gold.
 * The grader (and its CAS) is loaded only when some rollout needs grading.
 */
import type { Outcome, Rollout } from '../core/model';
import { extractAnswer } from '../core/answer/extract';
import { loadAnswerGrader, type AnswerGrader } from '../core/answer/grade';

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
      const extracted = extractAnswer(r.response);
      const extractedText = extracted ? extracted.text : null;
      if (r.fileOutcome.kind !== 'unknown') {
        out.push({ ...r.fileOutcome, extracted: extractedText });
      } else if (r.gold === null || extractedText === null) {
        out.push({ kind: 'unknown', source: 'none', extracted: extractedText });
      } else {
        const grader = await (this.grader ??= loadAnswerGrader({ cache: true }));
        const verdict = grader.grade(extractedText, r.gold);
        const kind = verdict.equal === null ? 'unknown' : verdict.equal ? 'correct' : 'incorrect';
        out.push({ kind, source: verdict.equal === null ? 'none' : 'graded', extracted: extractedText });
      }
    }
    return out;
  }
}
