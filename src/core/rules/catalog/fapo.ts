/**
 * FAPO (verl-recipe `fapo/reward_fn_reasoning.py`, `compute_score_fapo`): a correct answer (reward
 * 1) is shown to a generative reward model, which returns the index of the earliest wrong step or
 * -1; any index but -1 marks it `is_flawed_positive` and its reward drops by
 * `FLAWED_REWARD_PENALTY` (1.0) to 0. Incorrect answers keep -1. Nothing leaves the batch: a flawed
 * positive stays in it, but is no longer reinforced as correct — here it counts as dropped from the
 * positives. An unreadable GenRM answer makes it not flawed in the reference; a rollout with no
 * signal at all is kept here under `kept-no-signal`, so that the report says how many were not judged.
 *
 * The GenRM's verdict is read from the dump (`is_flawed_positive`, or a first-error index such as
 * `first_error_step`), or taken from the current scorer: its first step below the low-score threshold.
 */
import { CORRECT, notRankedOutcome, type CurationRule, type GroupVerdicts, type RuleGroup, type RuleParams } from '../rule';

export const RULE: CurationRule = {
  name: 'fapo',
  title: 'FAPO (flawed positives)',
  summary: 'FAPO: a correct answer with a wrong step is no longer a positive.',
  order: 40,
  reference: 'verl-project/verl-recipe fapo/reward_fn_reasoning.py (compute_score_fapo, FLAWED_REWARD_PENALTY)',
  reads: ['outcome', 'flawed', 'step-scores'],
  params: [
    { name: 'genrm', kind: 'choice', default: 'auto', choices: ['auto', 'dump', 'scorer'], words: 'where the GenRM verdict comes from: the dump\'s field, the scorer\'s flagged step, or the dump where it says and the scorer elsewhere' },
  ],
  reasons: [
    { code: 'dropped-flawed-positive', words: 'dropped: correct, but a wrong step was found (reward 1 → 0)', short: 'dropped, flawed positive' },
    { code: 'kept-no-signal', words: 'kept: the rule\'s signal is missing for it', short: 'kept, no signal' },
  ],
  decideGroup,
};

function decideGroup(group: RuleGroup, params: RuleParams, out: GroupVerdicts): void {
  const source = params['genrm'] as string;
  for (let k = 0; k < group.size; k++) {
    const notRanked = notRankedOutcome(group, k);
    if (notRanked) {
      out.set(k, false, notRanked, null);
      continue;
    }
    if (group.outcome(k) !== CORRECT) {
      out.set(k, true, 'kept', null);
      continue;
    }
    const flawed = flawedVerdict(group, k, source);
    if (flawed === null) out.set(k, true, 'kept-no-signal', null);
    else out.set(k, !flawed, flawed ? 'dropped-flawed-positive' : 'kept', null);
  }
}

/** The GenRM verdict on a correct rollout, or null when the chosen source says nothing. */
export function flawedVerdict(group: RuleGroup, k: number, source: string): boolean | null {
  const fromDump = source === 'scorer' ? null : (group.signals(k).flawed ?? null);
  if (fromDump !== null || source === 'dump') return fromDump;
  if (Number.isNaN(group.score(k))) return null;
  return group.lowStep(k) !== -1;
}
