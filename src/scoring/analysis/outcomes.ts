/**
 * Outcomes: what the file states, else the extracted final answer graded against the gold. A
 * harness's own numeric `pred` is compared the way the harness compares it (`harness.ts`). The
 * answers of a batch are graded together: the cheap checks here, what they cannot decide in one
 * request to the CAS (which runs on a time budget, so a hostile answer is "not decided", never a
 * hang).
 */
import type { Outcome, Rollout } from '../../core/model';
import { finalAnswer } from '../../core/answer/finalAnswer';
import { askedFormatOfPrompt } from '../../core/answer/askedFormat';
import { verlGsm8kAnswer, verlGsm8kEqual } from '../../core/answer/trainerRule';
import type { FinalAnswer } from '../../core/answer/finalAnswer';
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
      const pred = r.filePred ?? null;
      const asked = pred === null || pred.trim() === '' ? askedFormatOfPrompt(r.prompt, r.promptReading?.system) : null;
      const text = assistantText(r.response, responseTurnsOf(r));
      const verlRule = asked === 'hashes' && (r.format === 'verl' || r.format === 'verl-v1');
      const answer = verlRule ? verlAnswer(text) : finalAnswer(text, pred, asked);
      const found = { extracted: answer ? answer.text : null, ...(answer ? { answerFrom: answer.from } : {}), ...(asked ? { asked } : {}) };
      if (verlRule && r.fileOutcome.kind === 'unknown' && r.gold !== null) {
        // verl's GSM8K rule compares the text as written: no CAS, and nothing left undecided.
        outcomes.push({ kind: answer !== null && verlGsm8kEqual(answer.text, r.gold) ? 'correct' : 'incorrect', source: 'graded', ...found });
      } else if (r.fileOutcome.kind !== 'unknown') {
        outcomes.push({ ...r.fileOutcome, ...found });
      } else if (r.gold !== null && answer === null && asked !== null) {
        // The prompt asks for a marker the response never wrote: a trainer's rule gives it nothing.
        outcomes.push({ kind: 'incorrect', source: 'graded', ...found });
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

/** The answer as verl's GSM8K rule reads it, named as that rule. */
function verlAnswer(text: string): FinalAnswer | null {
  const answer = verlGsm8kAnswer(text);
  return answer === null ? null : { text: answer, from: 'verl-gsm8k' };
}
