// The analysis decides a file's groups over its table's columns (decideTable); the editor's
// exports and every test of PROF's semantics use the member lists of decideAll. Both must give
// every rollout the same decision and the same false-positive verdict, ties and all.
import { describe, expect, it } from 'vitest';
import { decideTable } from '../../../../src/core/rules/decide';
import { decideAll } from '../../../../src/core/rules/decideList';
import { resolveSettings } from '../../../../src/core/profSettings';
import { makeCase, settingsFor } from './randomTables';
import { maskOf } from '../../../../src/core/rules/falsePositiveMask';

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
      // The rules' bits a report counts, read before the verdicts are made (they are made when asked for).
      const masks = Array.from({ length: table.count }, (_, row) => table.falsePositiveMask(row));
      const falsePositives = Array.from({ length: table.count }, (_, row) => table.falsePositive(row));
      expect(masks, `seed ${seed}`).toEqual(expected.falsePositives.map(maskOf));
      // A verdict once made is the one every later caller gets.
      for (let row = 0; row < table.count; row++) expect(table.falsePositive(row)).toBe(falsePositives[row]);
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
