/**
 * The steps of a request's items judged without the CAS: each step's score and note, and which
 * steps hold a claim that waits for the CAS, packed as a checker worker sends them back
 * (`JudgedSteps`). The host decides those steps again with the CAS exactly as it decides the steps
 * it judges itself (checkerScorer).
 */
import type { JudgedSteps } from '../../../protocol/checker';
import { judgeStep, stepOutcome, type StepScores } from './stepCheck';

export function judgeSteps(items: readonly (readonly string[])[], scores: StepScores): JudgedSteps {
  let total = 0;
  for (const steps of items) total += steps.length;
  const out: JudgedSteps = { scores: new Float64Array(total), notes: '', noteLengths: new Int32Array(total), casSteps: [] };
  const notes: string[] = [];
  let s = 0;
  for (const steps of items) {
    for (const step of steps) {
      const judged = judgeStep(step);
      if (judged.some((j) => j.verdict.status === 'needs-cas' && j.claim.latex)) out.casSteps.push(s);
      const outcome = stepOutcome(judged, scores);
      out.scores[s] = outcome.score;
      out.noteLengths[s] = outcome.note === null ? -1 : outcome.note.length;
      if (outcome.note !== null) notes.push(outcome.note);
      s++;
    }
  }
  out.notes = notes.join('');
  return out;
}
