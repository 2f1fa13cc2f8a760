/**
 * PROF as a curation rule: its decisions are the decider's first pass (`rules/prof.ts`), and its
 * parameters are the settings PROF has always had (`--m`, `--variant` …), so it takes none here.
 */
import type { CurationRule } from './rule';

export const PROF_RULE: CurationRule = {
  name: 'prof',
  title: 'PROF (process consistency)',
  reference: 'docs/prof-semantics.md',
  reads: ['outcome', 'step-scores'],
  params: [],
  reasons: {},
  decideGroup: null,
};
