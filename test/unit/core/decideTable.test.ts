// The analysis decides a file's groups over its table's columns (decideTable); the editor's
// exports and every test of PROF's semantics use the member lists of decideAll. Both must give
// every rollout the same decision and the same false-positive verdict, ties and all.
import { describe, expect, it } from 'vitest';
import { RolloutTable } from '../../../src/core/rolloutTable';
import { decideTable } from '../../../src/core/decideTable';
import { decideAll, type GroupMember } from '../../../src/core/groups';
import { resolveSettings, type ProfSettings } from '../../../src/core/profSettings';
import type { Outcome, OutcomeKind } from '../../../src/core/model';

const KINDS: OutcomeKind[] = ['correct', 'incorrect', 'unknown', 'non-binary'];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 4294967296);
}

interface Case {
  table: RolloutTable;
  members: GroupMember[];
}

/** A random table, groups interleaved, and the same rollouts as decideAll's members. */
function makeCase(seed: number, rowCount?: number): Case {
  const rand = random(seed);
  const table = new RolloutTable();
  const members: GroupMember[] = [];
  const rowsOf: { group: string; kind: OutcomeKind; isScored: boolean; stepScores: (number | null)[] }[] = [];
  const groups = 1 + Math.floor(rand() * 12);
  const rows = rowCount ?? Math.floor(rand() * 160);
  // A few score values only, so that consistencies tie often; sometimes a group far larger than 32.
  const values = [0, 0.25, 0.5, 0.5 + 1e-12, 0.75, 1, -0];
  for (let row = 0; row < rows; row++) {
    const group = rand() < 0.1 ? 'big' : `g${Math.floor(rand() * groups)}`;
    const kind = KINDS[rand() < 0.8 ? Math.floor(rand() * 2) : Math.floor(rand() * 4)] as OutcomeKind;
    const isScored = rand() < 0.9;
    const steps = Math.floor(rand() * 6);
    const stepScores = isScored ? Array.from({ length: steps }, () => (rand() < 0.1 ? null : (values[Math.floor(rand() * values.length)] as number))) : [];
    rowsOf.push({ group, kind, isScored, stepScores });
  }
  for (const [row, { group, kind, isScored, stepScores }] of rowsOf.entries()) {
    const outcome: Outcome = { kind, source: 'file', value: kind === 'correct' ? 1 : 0 };
    table.add({
      line: row + 1, index: 0, item: undefined, format: 'generic', group, prompt: 'p', response: '', responseChars: 0, gold: null,
      steps: [], rawSteps: null, stepScores, stepNotes: [], scorer: 'file', unscoredReason: isScored ? null : 'no scores', isScored,
      outcome, stepLabels: null, questionReading: { kind: 'plain' }, promptReading: undefined, responseTurns: null, outcomeField: null, rewards: null,
    }, { texts: false, offsets: false });
    members.push({ id: row, group, correct: kind === 'correct' ? true : kind === 'incorrect' ? false : null, nonBinary: kind === 'non-binary', scores: isScored ? stepScores : null });
  }
  return { table, members };
}

function settingsFor(seed: number): ProfSettings {
  const rand = random(seed * 7 + 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  return resolveSettings({
    m: 1 + Math.floor(rand() * 8),
    remove: rand() < 0.3 ? Math.floor(rand() * 6) : null,
    aggregate: pick(['mean', 'min', 'sum'] as const),
    penalty: pick(['card', 'reference'] as const),
    lambda: pick([0, 0.5, 10]),
    maxSteps: 1 + Math.floor(rand() * 6),
    threshold: pick([0, 0.3, 0.5, 0.9]),
    falsePositiveRules: pick([['prof-dropped', 'weak-step', 'bottom-half'], ['weak-step'], ['bottom-half', 'prof-dropped'], []] as const).slice(),
    variant: rand() < 0.2 ? 'pos' : 'both',
    seed: Math.floor(rand() * 5),
  });
}

describe('decideTable', () => {
  it('decides every rollout as decideAll does, for many tables and settings', () => {
    let compared = 0;
    let ties = 0;
    let suspected = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const { table, members } = makeCase(seed);
      const settings = settingsFor(seed);
      decideTable(table, settings);
      const expected = decideAll(members, settings);
      const decisions = Array.from({ length: table.count }, (_, row) => table.decision(row));
      const falsePositives = Array.from({ length: table.count }, (_, row) => table.falsePositive(row));
      expect(decisions, `seed ${seed}`).toEqual(expected.decisions);
      expect(falsePositives, `seed ${seed}`).toEqual(expected.falsePositives);
      compared += decisions.length;
      ties += decisions.filter((d) => d.reason === 'dropped-tie').length;
      suspected += falsePositives.filter((f) => f.suspected).length;
    }
    // The cases reach what the comparison is for: many rollouts, ties and flags among them.
    expect(compared).toBeGreaterThan(20000);
    expect(ties).toBeGreaterThan(100);
    expect(suspected).toBeGreaterThan(100);
  });

  it('decides a table longer than a column page (65,536 rows) as decideAll does', () => {
    const { table, members } = makeCase(11, 70_000);
    const settings = resolveSettings({ m: 4 });
    decideTable(table, settings);
    const expected = decideAll(members, settings);
    // Rows on the second page are decided too, and what was decided there is kept.
    expect(table.decision(69_999)).toEqual(expected.decisions[69_999]);
    expect(Array.from({ length: table.count }, (_, row) => table.decision(row))).toEqual(expected.decisions);
    expect(Array.from({ length: table.count }, (_, row) => table.falsePositive(row))).toEqual(expected.falsePositives);
  });
});
