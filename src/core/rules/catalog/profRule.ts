/**
 * PROF as a curation rule: its decisions are the decider's first pass (`rules/prof.ts`), and its
 * parameters are the settings PROF has always had (`--m`, `--variant` …), so it takes none here.
 */
import type { CurationRule } from '../rule';

export const RULE: CurationRule = {
  name: 'prof',
  title: 'PROF (process consistency)',
  summary: 'PROF: balanced split of each group by process consistency (the settings below).',
  // First: the default, and its reasons are the table's first numbers.
  order: 0,
  reference: 'docs/prof-semantics.md',
  reads: ['outcome', 'step-scores'],
  params: [],
  reasons: [
    { code: 'kept', words: 'kept', short: 'kept' },
    { code: 'kept-small-group', words: 'kept (group not larger than m)', short: 'kept, small group' },
    { code: 'dropped-low-consistency', words: 'dropped: correct, steps least trusted', short: 'dropped, least trusted' },
    { code: 'dropped-conflict', words: 'dropped: incorrect, steps most trusted', short: 'dropped, conflict' },
    { code: 'dropped-step-penalty', words: 'dropped: step-count penalty', short: 'dropped, step penalty' },
    { code: 'dropped-random', words: 'dropped: incorrect, random (POS)', short: 'dropped, random' },
    { code: 'dropped-tie', words: 'dropped: tied with a kept rollout; removed by file order', short: 'tied' },
    { code: 'dropped-group-too-small', words: 'dropped: group not larger than remove', short: 'dropped, group too small' },
    { code: 'not-ranked-no-outcome', words: 'not ranked: outcome unknown', short: 'unranked, no outcome' },
    { code: 'not-ranked-non-binary', words: 'not ranked: reward not binary', short: 'unranked, not binary' },
    { code: 'not-ranked-no-scores', words: 'not ranked: no step scores', short: 'unranked, no scores' },
  ],
  decideGroup: null,
};
