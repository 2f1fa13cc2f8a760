/**
 * One item's steps judged without the CAS: each step's score and note, and which steps hold a
 * claim that waits for the CAS. A checker worker sends this back; the host decides those steps
 * again with the CAS exactly as it decides the steps it judges itself (checkerScorer).
 */
import type { JudgedItem } from '../../../protocol/checker';
import { judgeStep, stepOutcome, type StepScores } from './stepCheck';

export function judgeItem(steps: readonly string[], scores: StepScores): JudgedItem {
  const out: JudgedItem = { scores: new Array<number>(steps.length), notes: new Array<string | null>(steps.length), casSteps: [] };
  for (let s = 0; s < steps.length; s++) {
    const judged = judgeStep(steps[s] as string);
    if (judged.some((j) => j.verdict.status === 'needs-cas' && j.claim.latex)) out.casSteps.push(s);
    const outcome = stepOutcome(judged, scores);
    out.scores[s] = outcome.score;
    out.notes[s] = outcome.note;
  }
  return out;
}
