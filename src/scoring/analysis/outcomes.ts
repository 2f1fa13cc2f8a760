/**
 * Outcomes: what the file states, else the extracted final answer graded against the gold. A
 * harness's own numeric `pred` is compared the way the harness compares it (`harness.ts`). The
 * answers of a batch are graded together: the cheap checks here, what they cannot decide in one
 * request to the CAS (which runs on a time budget, so a hostile answer is "not decided", never a
 * hang).
 */
import type { Outcome, Rollout } from '../../core/model';
import { finalAnswer } from '../../core/answer/finalAnswer';
import { assistantText } from '../../core/transcript/response';
import { responseTurnsOf } from '../../core/rolloutText';
import { createBoundedGrader, type BoundedGrader } from '../../core/answer/boundedGrade';
import { harnessNumericEqual } from '../../core/answer/harness';
import type { CasService } from '../../core/cas/casService';
import { shorten } from '../../core/cas/casLimits';

/** An answer that was not graded, and why (shown as a diagnostic on its line). */
export interface UngradedAnswer {
  rollout: Rollout;
  answer: string;
  reason: string;
}

export class OutcomeResolver {
  private grader: BoundedGrader | null = null;

  /** `cas`: where the algebra runs. */
  constructor(private readonly cas: CasService) {}

  /**
   * Outcomes for a batch, aligned with the input. The answer is extracted for display only when
   * `extractAlways` is set; otherwise only when it must be graded.
   */
  async resolve(
    rollouts: readonly Rollout[],
    options: { extractAlways: boolean; signal?: AbortSignal },
  ): Promise<{ outcomes: Outcome[]; ungraded: UngradedAnswer[] }> {
    const outcomes: Outcome[] = [];
    const toGrade: { at: number; pred: string; gold: string }[] = [];
    rollouts.forEach((r, at) => {
      if (!options.extractAlways && r.fileOutcome.kind !== 'unknown') return void outcomes.push(r.fileOutcome);
      // Tool replies and tool calls never supply the answer: only the assistant's own text is read.
      const answer = finalAnswer(assistantText(r.response, responseTurnsOf(r)), r.filePred ?? null);
      const found = answer ? { extracted: answer.text, answerFrom: answer.from } : { extracted: null };
      if (r.fileOutcome.kind !== 'unknown') {
        outcomes.push({ ...r.fileOutcome, ...found });
      } else if (r.gold === null || answer === null) {
        outcomes.push({ kind: 'unknown', source: 'none', ...found });
      } else if (answer.from === 'pred' && harnessNumericEqual(answer.text, r.gold) !== null) {
        // The harness's own answer, compared the way the harness compares numbers.
        outcomes.push({ kind: harnessNumericEqual(answer.text, r.gold) ? 'correct' : 'incorrect', source: 'graded', ...found });
      } else {
        outcomes.push({ kind: 'unknown', source: 'none', ...found });
        toGrade.push({ at, pred: answer.text, gold: r.gold });
      }
    });
    const ungraded: UngradedAnswer[] = [];
    if (toGrade.length === 0) return { outcomes, ungraded };
    this.grader ??= createBoundedGrader(this.cas);
    const verdicts = await this.grader.gradeMany(toGrade, options.signal);
    toGrade.forEach(({ at, pred }, k) => {
      const verdict = verdicts[k];
      const rollout = rollouts[at];
      const before = outcomes[at];
      if (!verdict || !rollout || !before) return;
      const kind = verdict.equal === null ? 'unknown' : verdict.equal ? 'correct' : 'incorrect';
      outcomes[at] = { ...before, kind, source: verdict.equal === null ? 'none' : 'graded' };
      if (verdict.notDecided !== undefined) ungraded.push({ rollout, answer: shorten(pred, 60), reason: verdict.notDecided });
    });
    return { outcomes, ungraded };
  }
}
