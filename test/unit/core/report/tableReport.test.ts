// The file report is counted over the decided table's columns (reportOfTable); buildReport counts
// the same from one entry per rollout. Both must give the same report, key order included (the
// JSON output lists reasons, rules, scorers and readings in the order they first occur).
import { describe, expect, it } from 'vitest';
import type { RolloutTable } from '../../../../src/core/table/rolloutTable';
import { decideTable } from '../../../../src/core/rules/decide';
import { buildReport, type ReportEntry } from '../../../../src/core/report/fileReport';
import { reportOfTable } from '../../../../src/core/report/tableReport';
import { resolveSettings } from '../../../../src/core/profSettings';
import { makeCase, settingsFor } from '../rules/randomTables';

/** The report's entries, rollout by rollout in file order, from the table's accessors. */
function entries(table: RolloutTable): ReportEntry[] {
  return Array.from({ length: table.count }, (_, row) => ({
    group: table.group(row), outcome: table.outcome(row), decision: table.decision(row), falsePositive: table.falsePositive(row),
    scorer: table.scorer(row), format: table.format(row), questionReading: table.questionReading(row),
  }));
}

/** The report as its JSON lists it: keys in order. */
const asJson = (x: unknown): string => JSON.stringify(x);

describe('reportOfTable', () => {
  it('counts the report buildReport counts, for many tables and settings, in the same key order', () => {
    let rollouts = 0;
    let readings = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const { table } = makeCase(seed, undefined, seed % 2 === 0);
      decideTable(table, settingsFor(seed));
      const unreadable = seed % 3;
      const expected = buildReport(entries(table), unreadable);
      expect(asJson(reportOfTable(table, unreadable)), `seed ${seed}`).toBe(asJson(expected));
      rollouts += expected.rollouts;
      readings += Object.keys(expected.readAs).length;
    }
    // The cases reach what the comparison is for: many rollouts, and several readings among them.
    expect(rollouts).toBeGreaterThan(15000);
    expect(readings).toBeGreaterThan(300);
  });

  it('counts a table whose groups are not decided yet as buildReport does', () => {
    const { table } = makeCase(5, 50, true);
    expect(asJson(reportOfTable(table, 0))).toBe(asJson(buildReport(entries(table), 0)));
  });

  it('counts a table longer than a column page (65,536 rows)', () => {
    const { table } = makeCase(12, 70_000, true);
    decideTable(table, resolveSettings({ m: 4 }));
    const report = reportOfTable(table, 0);
    expect(report.rollouts).toBe(70_000);
    expect(asJson(report)).toBe(asJson(buildReport(entries(table), 0)));
  });
});
