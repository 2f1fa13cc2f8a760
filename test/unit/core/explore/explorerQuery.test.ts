/** Queries from saved webview state: checked, made canonical, and the same after a JSON round trip. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { emptyQuery, parseExplorerQuery, queryKey, QueryError } from '../../../../src/core/explore/explorerQuery';
import { queryTitle } from '../../../../src/core/explore/explorerWords';
import { sortRows } from '../../../../src/core/explore/stableSort';

describe('parseExplorerQuery', () => {
  it('lists in a fixed order without repeats, ranges on one column merged, no-op conditions dropped', () => {
    const q = parseExplorerQuery({
      version: 1,
      filter: {
        reasons: ['dropped-tie', 'kept', 'dropped-tie'],
        outcomes: ['incorrect', 'correct'],
        ranges: [{ column: 'meanScore', max: 0.5 }, { column: 'steps', min: 20 }, { column: 'steps', min: 10, max: 40 }, { column: 'consistency', min: -Infinity }],
        search: { text: '', mode: 'plain' },
        kept: null,
        unknownKey: 1,
      },
      sort: { column: 'line', descending: false },
    });
    expect(q).toEqual({
      version: 1,
      filter: { outcomes: ['correct', 'incorrect'], reasons: ['kept', 'dropped-tie'], ranges: [{ column: 'steps', min: 20, max: 40 }, { column: 'meanScore', max: 0.5 }] },
      sort: null,
    });
    expect(parseExplorerQuery(JSON.parse(JSON.stringify(q)))).toEqual(q);
    expect(queryTitle(q, 1234)).toBe('correct or incorrect · kept or tied · 20 ≤ H ≤ 40 · mean score ≤ 0.5 · 1,234');
  });

  it('a rules\' disagreement: parameters in a canonical order, only those of its two rules, checked as --rule-param checks them', () => {
    const q = parseExplorerQuery({ version: 1, filter: { disagree: { a: 'prof', b: 'gfpo', params: { gfpo: { group_filter_func: 'length', num_remains_in_group: 2 }, roc: { down_sample_to_n: 4 }, prof: {} } } }, sort: null });
    expect(JSON.stringify(q.filter.disagree)).toBe('{"a":"prof","b":"gfpo","params":{"gfpo":{"group_filter_func":"length","num_remains_in_group":2}}}');
    expect(queryKey(q)).toBe(queryKey({ version: 1, filter: { disagree: { a: 'prof', b: 'gfpo', params: { gfpo: { num_remains_in_group: 2, group_filter_func: 'length' } } } }, sort: null }));
    expect(queryTitle(q, 3)).toBe('prof ≠ gfpo (group_filter_func=length, num_remains_in_group=2) (kept by one, dropped by the other) · 3');
    expect(() => parseExplorerQuery({ version: 1, filter: { disagree: { a: 'prof', b: 'prof' } }, sort: null })).toThrow(/two different rules/);
    expect(() => parseExplorerQuery({ version: 1, filter: { disagree: { a: 'prof' } }, sort: null })).toThrow(/two rules, a and b/);
    expect(() => parseExplorerQuery({ version: 1, filter: { disagree: { a: 'prof', b: 'prime', params: { prime: { accuracy_upper_bound: 2 } } } }, sort: null })).toThrow(/prime's accuracy_upper_bound must be a number from 0 to 1/);
    expect(() => parseExplorerQuery({ version: 1, filter: { disagree: { a: 'prof', b: 'prime', params: { prime: { accuracy_upper_bound: [1] } } } }, sort: null })).toThrow(/numbers, booleans and strings/);
  });

  it('says what is wrong with a query it cannot use', () => {
    expect(() => parseExplorerQuery({ version: 2, filter: {}, sort: null })).toThrow(/version 2 is not known/);
    expect(() => parseExplorerQuery({ version: 1, filter: { outcomes: ['right'] }, sort: null })).toThrow(QueryError);
    expect(() => parseExplorerQuery({ version: 1, filter: { ranges: [{ column: 'prompt', min: 1 }] }, sort: null })).toThrow(/numeric column/);
    expect(() => parseExplorerQuery({ version: 1, filter: { search: { text: 'x'.repeat(1001), mode: 'plain' } }, sort: null })).toThrow(/at most 1000/);
    expect(() => parseExplorerQuery({ version: 1, filter: {}, sort: { column: '__proto__' } })).toThrow(/sort needs a column/);
  });

  it('titles: the example form, a reward column, a regex in one field, nothing at all', () => {
    const q = parseExplorerQuery({ version: 1, filter: { suspectedFalsePositive: true, ranges: [{ column: 'steps', min: 20 }, { column: 'reward:acc', min: 1, max: 1 }], search: { text: 'sym.?py', mode: 'regex', fields: ['response'] } }, sort: { column: 'reward:acc', descending: false } });
    expect(queryTitle(q, 312)).toBe('suspected FP · H ≥ 20 · acc = 1 · /sym.?py/ in response · by acc ↑ · 312');
    expect(queryTitle(emptyQuery(), 1_000_000)).toBe('all rollouts · 1,000,000');
    expect(queryKey(emptyQuery())).toBe('{"version":1,"filter":{},"sort":null}');
  });
});

describe('sortRows', () => {
  it('orders as a stable comparison sort would: ties in the order given, NaN last both ways', () => {
    const key = fc.oneof(fc.double({ noNaN: false }), fc.constantFrom(0, -0, 1, 1, 0.5, Number.NaN, -Infinity, Infinity, 1e-300, -1e-300));
    fc.assert(fc.property(fc.array(key, { maxLength: 300 }), fc.boolean(), (keys, descending) => {
      const rows = Int32Array.from(keys.map((_, i) => i));
      const expected = [...rows].sort((a, b) => {
        const x = keys[a]!;
        const y = keys[b]!;
        if (Number.isNaN(x) || Number.isNaN(y)) return Number(Number.isNaN(x)) - Number(Number.isNaN(y));
        return (descending ? y - x : x - y) || 0;
      });
      expect([...sortRows(rows, (r) => keys[r]!, descending)]).toEqual(expected);
    }));
  });
});
