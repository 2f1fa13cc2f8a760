/**
 * The Explorer's column list is the one place a column is declared: every declared column is
 * offered where its declaration says (the query's guard, the sort, a range filter, the row list,
 * the query form, Compare), and sorting or filtering by a number column orders and keeps rows by
 * the number its cell shows. Run on the written fixture (test/fixtures/explore/small.jsonl).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { buildExplorerTable, type ExplorerTable } from '../../../../src/core/explore/explorerTable';
import { ExplorerEngine } from '../../../../src/core/explore/explorerEngine';
import { numericColumnOf } from '../../../../src/core/explore/explorerFilter';
import { parseExplorerQuery, QueryError } from '../../../../src/core/explore/explorerQuery';
import { EXPLORER_COLUMNS, cellText, columnHeader, columnNames, type NumericColumn } from '../../../../src/core/explore/explorerColumns';
import { columnWidth, listColumns } from '../../../../webview/explorer/columnFit';

let table: ExplorerTable;
let engine: ExplorerEngine;

beforeAll(async () => {
  const analysis = await analyseText(readFileSync('test/fixtures/explore/small.jsonl', 'utf8'), { fileName: 'small.jsonl', scorer: 'file', settings: { m: 2 } });
  table = buildExplorerTable(analysis);
  engine = new ExplorerEngine(table, null);
});

describe('each declared column', () => {
  it('is accepted as a sort by the query guard, and as a range only when it is a number', () => {
    for (const c of EXPLORER_COLUMNS) {
      expect(parseExplorerQuery({ version: 1, filter: {}, sort: { column: c.name, descending: true } }).sort?.column).toBe(c.name);
      const range = (): unknown => parseExplorerQuery({ version: 1, filter: { ranges: [{ column: c.name, min: 1 }] }, sort: null });
      if (c.kind === 'number') expect(range).not.toThrow();
      else expect(range).toThrow(QueryError);
    }
  });

  it('is a column of the row list (a run-only one in a run\'s list only), with a width and a header', () => {
    const file = listColumns({ rewardColumns: [], isSearching: false });
    const run = listColumns({ rewardColumns: [], isSearching: false, isRun: true });
    for (const c of EXPLORER_COLUMNS) {
      expect(run).toContain(c.name);
      expect(file.includes(c.name)).toBe(!('isRunOnly' in c && c.isRunOnly));
      expect(columnWidth(c.name)).toBe(c.width);
      expect(columnHeader(c.name)).not.toBe('');
    }
  });

  it('has a cell on every row of the file (a dash where there is nothing)', async () => {
    const rows = (await engine.query({ version: 1, filter: {}, sort: null })).rowsPage(0, 100).rows;
    for (const c of EXPLORER_COLUMNS) for (const row of rows) expect(cellText(row, c.name).length).toBeGreaterThan(0);
  });
});

describe('a number column', () => {
  const numbers = columnNames<NumericColumn>((c) => c.kind === 'number' && !('isRunOnly' in c && c.isRunOnly));

  it('sorts the rows by its numbers, rows without one last', async () => {
    for (const column of numbers) {
      const value = numericColumnOf(table, column);
      const ids = [...(await engine.query({ version: 1, filter: {}, sort: { column, descending: true } })).ids];
      const values = ids.map(value);
      const known = values.filter((v) => !Number.isNaN(v));
      expect(values.slice(0, known.length)).toEqual(known);
      for (let i = 1; i < known.length; i++) expect(known[i]!).toBeLessThanOrEqual(known[i - 1]!);
    }
  });

  it('keeps exactly the rows whose number is in a range', async () => {
    for (const column of numbers) {
      const value = numericColumnOf(table, column);
      const known = Array.from({ length: table.count }, (_, row) => value(row)).filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
      const min = known[Math.floor(known.length / 2)]!;
      const expected = Array.from({ length: table.count }, (_, row) => row).filter((row) => value(row) >= min);
      expect([...(await engine.query({ version: 1, filter: { ranges: [{ column, min }] }, sort: null })).ids]).toEqual(expected);
    }
  });
});
