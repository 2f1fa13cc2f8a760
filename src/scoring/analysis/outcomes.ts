/**
 * Outcomes: what the file states, else the extracted final answer graded against the gold. A
 * harness's own numeric `pred` is compared the way the harness compares it (`harness.ts`). The
 * answers of a batch are graded together: the cheap checks here, what they cannot decide in one
 * request to the CAS (which runs on a time budget, so a hostile answer is "not decided", never a
 * hang).
 */
import type { Outcome, OutcomeKind, Rollout } from '../../core/model';
import { finalAnswer } from '../../core/answer/finalAnswer';
import { askedFormatOfPrompt } from '../../core/answer/askedFormat';
import { verlGsm8kAnswer, verlGsm8kEqual } from '../../core/answer/trainerRule';
import type { FinalAnswer } from '../../core/answer/finalAnswer';
import { assistantText } from '../../core/transcript/response';
import { responseTurnsOf } from '../../core/transcript/rolloutText';
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

/** How often grading against the gold agrees with the outcome the file states. */
export class GradingAgreement {
  /** Rollouts whose file outcome could be checked against the gold (graded or not). */
  eligible = 0;
  graded = 0;
  agrees = 0;
  /** The first rollouts where the two differ (line, 0-based response index), for the report. */
  readonly disagreeing: { line: number; index: number }[] = [];

  count(rollout: Pick<Rollout, 'fileOutcome' | 'line' | 'index'>, graded: OutcomeKind): void {
    this.graded++;
    if (graded === rollout.fileOutcome.kind) this.agrees++;
    else if (this.disagreeing.length < MAX_DISAGREEING) this.disagreeing.push({ line: rollout.line, index: rollout.index });
  }

  /** Adds another batch's counts. */
  add(other: GradingAgreement): void {
    this.eligible += other.eligible;
    this.graded += other.graded;
    this.agrees += other.agrees;
    for (const d of other.disagreeing) if (this.disagreeing.length < MAX_DISAGREEING) this.disagreeing.push(d);
  }
}

const MAX_DISAGREEING = 5;

/**
 * The answer as the prompt asks for it (or by the harness's habits when it states no format), and
 * the outcome wherever it is decided without the CAS: verl's GSM8K rule (text equality), a missing
 * asked-for marker (incorrect, as a trainer's rule gives it nothing), a harness's numeric `pred`.
 */
function ownGrading(r: Rollout): { answer: FinalAnswer | null; found: Partial<Outcome>; graded?: OutcomeKind } {
  // Tool replies and tool calls never supply the answer: only the assistant's own text is read.
  const pred = r.filePred ?? null;
  const asked = pred === null || pred.trim() === '' ? askedFormatOfPrompt(r.prompt, r.promptReading?.system) : null;
  const text = assistantText(r.response, responseTurnsOf(r));
  const verlRule = asked === 'hashes' && (r.format === 'verl' || r.format === 'verl-v1');
  const answer = verlRule ? verlAnswer(text) : finalAnswer(text, pred, asked);
  const found = { extracted: answer ? answer.text : null, ...(answer ? { answerFrom: answer.from } : {}), ...(asked ? { asked } : {}) };
  if (r.gold === null) return { answer, found };
  if (verlRule) return { answer, found, graded: answer !== null && verlGsm8kEqual(answer.text, r.gold) ? 'correct' : 'incorrect' };
  if (answer === null && asked !== null) return { answer, found, graded: 'incorrect' };
  if (answer !== null && answer.from === 'pred') {
    const equal = harnessNumericEqual(answer.text, r.gold);
    if (equal !== null) return { answer, found, graded: equal ? 'correct' : 'incorrect' };
  }
  return { answer, found };
}

export class OutcomeResolver {
  private grader: BoundedGrader | null = null;

  /** `cas`: where the algebra runs. */
  constructor(private readonly cas: CasService) {}

  /**
   * Outcomes for a batch, aligned with the input. The answer is extracted for display only when
   * `extractAlways` is set; otherwise only when it must be graded. Where a record states its outcome
   * and also carries a gold, the answer is graded all the same and `agreement` counts how often that
   * grading agrees with the file (what a user checks before trusting grading where the file is silent).
   */
  async resolve(
    rollouts: readonly Rollout[],
    options: { extractAlways: boolean; signal?: AbortSignal; agreementBudget?: { left: number } },
  ): Promise<{ outcomes: Outcome[]; ungraded: UngradedAnswer[]; agreement: GradingAgreement }> {
    const outcomes: Outcome[] = [];
    const agreement = new GradingAgreement();
    const toGrade: { at: number; pred: string; gold: string }[] = [];
    rollouts.forEach((r, at) => {
      const fileKnown = r.fileOutcome.kind !== 'unknown';
      const canCheck = fileKnown && r.gold !== null && (r.fileOutcome.kind === 'correct' || r.fileOutcome.kind === 'incorrect');
      if (canCheck) agreement.eligible++;
      // Checking the file's outcomes is a sample (the first rollouts of the file): on a large dump
      // that states its outcomes, grading every answer would be most of the command's work.
      const budget = options.agreementBudget;
      const checksFile = canCheck && (budget === undefined || budget.left-- > 0);
      if (!options.extractAlways && fileKnown && !checksFile) return void outcomes.push(r.fileOutcome);
      const { answer, found, graded } = ownGrading(r);
      if (fileKnown) {
        outcomes.push({ ...r.fileOutcome, ...found });
        if (checksFile && graded !== undefined) agreement.count(r, graded);
        else if (checksFile && answer !== null && r.gold !== null) toGrade.push({ at, pred: answer.text, gold: r.gold });
      } else if (graded !== undefined) {
        outcomes.push({ kind: graded, source: 'graded', ...found });
      } else if (r.gold === null || answer === null) {
        outcomes.push({ kind: 'unknown', source: 'none', ...found });
      } else {
        outcomes.push({ kind: 'unknown', source: 'none', ...found });
        toGrade.push({ at, pred: answer.text, gold: r.gold });
      }
    });
    const ungraded: UngradedAnswer[] = [];
    if (toGrade.length === 0) return { outcomes, ungraded, agreement };
    this.grader ??= createBoundedGrader(this.cas);
    const verdicts = await this.grader.gradeMany(toGrade, options.signal);
    toGrade.forEach(({ at, pred }, k) => {
      const verdict = verdicts[k];
      const rollout = rollouts[at];
      const before = outcomes[at];
      if (!verdict || !rollout || !before) return;
      const kind = verdict.equal === null ? 'unknown' : verdict.equal ? 'correct' : 'incorrect';
      if (rollout.fileOutcome.kind !== 'unknown') {
        if (kind !== 'unknown') agreement.count(rollout, kind);
        return;
      }
      outcomes[at] = { ...before, kind, source: verdict.equal === null ? 'none' : 'graded' };
      if (verdict.notDecided !== undefined) ungraded.push({ rollout, answer: shorten(pred, 60), reason: verdict.notDecided });
    });
    return { outcomes, ungraded, agreement };
  }
}

/** The answer as verl's GSM8K rule reads it, named as that rule. */
function verlAnswer(text: string): FinalAnswer | null {
  const answer = verlGsm8kAnswer(text);
  return answer === null ? null : { text: answer, from: 'verl-gsm8k' };
}
