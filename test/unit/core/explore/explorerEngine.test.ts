/**
 * The Rollout Explorer's queries against answers worked out by hand: a small written fixture
 * (test/fixtures/explore/small.jsonl, file step scores, m = 2) whose every decision is known, and
 * the bundled example (nine groups of eight with one pattern: per group one suspected false
 * positive, one tie, two penalised rollouts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { buildExplorerTable } from '../../../../src/core/explore/explorerTable';
import { ExplorerEngine, MAX_PAGE_ROWS } from '../../../../src/core/explore/explorerEngine';
import { QueryError, type ExplorerFilter, type ExplorerSort } from '../../../../src/core/explore/explorerQuery';
import { memoryTexts } from '../../../../src/core/explore/textSearch';
import type { FileAnalysis } from '../../../../src/core/report/fileAnalysis';

let small: ExplorerEngine;
let example: ExplorerEngine;
let exampleAnalysis: FileAnalysis;

async function engineOf(path: string, options: Parameters<typeof analyseText>[1]): Promise<{ engine: ExplorerEngine; analysis: FileAnalysis }> {
  const analysis = await analyseText(readFileSync(path, 'utf8'), options);
  return { engine: new ExplorerEngine(buildExplorerTable(analysis), memoryTexts(analysis.rollouts)), analysis };
}

beforeAll(async () => {
  small = (await engineOf('test/fixtures/explore/small.jsonl', { fileName: 'small.jsonl', scorer: 'file', settings: { m: 2 } })).engine;
  const ex = await engineOf('examples/gsm-rollouts.jsonl', { fileName: 'gsm-rollouts.jsonl' });
  example = ex.engine;
  exampleAnalysis = ex.analysis;
});

async function ids(engine: ExplorerEngine, filter: ExplorerFilter, sort: ExplorerSort | null = null): Promise<number[]> {
  const result = await engine.query({ version: 1, filter, sort });
  return [...result.ids];
}

describe('filters on the written fixture', () => {
  it('suspected false positives are the two correct answers PROF drops with a step below 0.5', async () => {
    const result = await small.query({ version: 1, filter: { suspectedFalsePositive: true }, sort: null });
    expect([...result.ids]).toEqual([1, 10]);
    expect(result.title).toBe('suspected FP · 2');
    const [first] = result.rowsPage(0, 10).rows;
    expect(first).toMatchObject({ line: 2, group: 'a', reason: 'dropped-low-consistency', evidence: 'step 1 of 2 scores 0.20, below 0.5', falsePositiveRules: ['prof-dropped', 'weak-step', 'bottom-half'] });
    expect(first!.strength).toBeCloseTo(0.3, 9);
  });

  it('reasons, tied included; penalised; unscored; not kept', async () => {
    expect(await ids(small, { reasons: ['dropped-tie'] })).toEqual([4]);
    expect(await ids(small, { penalised: true })).toEqual([3]);
    expect(await ids(small, { unscored: true })).toEqual([11]);
    expect(await ids(small, { kept: false })).toEqual([1, 3, 4, 7, 10, 11]);
    expect(await ids(small, { reasons: ['not-ranked-no-outcome', 'dropped-step-penalty'] })).toEqual([3, 7]);
  });

  it('outcome with an H range; score and reward ranges (a rollout without the number never passes)', async () => {
    expect(await ids(small, { outcomes: ['correct'], ranges: [{ column: 'steps', min: 2 }] })).toEqual([0, 1, 4, 5, 8, 10]);
    expect(await ids(small, { ranges: [{ column: 'meanScore', max: 0.55 }] })).toEqual([1, 3, 6, 7, 9]);
    expect(await ids(small, { ranges: [{ column: 'reward:score', min: 1 }] })).toEqual([0, 1, 4, 5, 8, 10, 11]);
    expect(await ids(small, { ranges: [{ column: 'consistency', min: -1, max: 0 }] })).toEqual([2, 6, 9]);
    expect(await ids(small, { group: 'c' })).toEqual([8, 9, 10]);
  });

  it('a grouped line names each response; the reward column is named for the field the outcome was read from', async () => {
    const page = (await small.query({ version: 1, filter: { group: 'c' }, sort: null })).rowsPage(0, 10);
    expect(page.rows.map((r) => [r.line, r.index, r.isSharedLine])).toEqual([[9, 0, true], [9, 1, true], [9, 2, true]]);
    expect(page.rows.map((r) => r.rewards)).toEqual([{ score: 1 }, { score: 0 }, { score: 1 }]);
    expect(small.rewardColumns).toEqual(['score']);
  });
});

describe('a group kept by its id, named by its question', () => {
  it('the title names the group by its question (shortened), the tooltip whole with the id; rows carry the name', async () => {
    const result = await example.query({ version: 1, filter: { group: 'gsm-02' }, sort: null });
    expect(result.ids).toHaveLength(8);
    expect(result.title).toBe('group Omar bakes 6 trays of cookies with 8… · 8');
    expect(result.tooltip).toBe('group gsm-02: Omar bakes 6 trays of cookies with 8 cookies on each tray. Omar gives away 19 cookies. How many cookies are left? · 8');
    const row = result.rowsPage(0, 1).rows[0]!;
    expect(row.group).toBe('gsm-02');
    expect(row.groupName).toBe('Omar bakes 6 trays of cookies with 8 cookies on each tray. Omar gives away 19 cookies. How many cookies are left?');
  });

  it('an id no group has keeps nothing and is named by the id', async () => {
    const result = await example.query({ version: 1, filter: { group: 'no-such-group' }, sort: null });
    expect(result.ids).toHaveLength(0);
    expect(result.title).toBe('group no-such-group · 0');
  });
});

describe('sorting: stable, ties in file order, rows without a number last', () => {
  it('by mean step score, both ways', async () => {
    expect(await ids(small, {}, { column: 'meanScore', descending: true })).toEqual([8, 0, 10, 2, 4, 5, 1, 7, 9, 6, 3, 11]);
    expect(await ids(small, {}, { column: 'meanScore', descending: false })).toEqual([3, 6, 7, 9, 1, 2, 4, 5, 10, 0, 8, 11]);
  });

  it('by consistency, by false-positive strength, by outcome, by extracted answer (numbers by value)', async () => {
    expect(await ids(small, {}, { column: 'consistency', descending: false })).toEqual([3, 2, 9, 6, 1, 4, 5, 10, 0, 8, 7, 11]);
    expect(await ids(small, {}, { column: 'falsePositive', descending: true })).toEqual([1, 10, 0, 2, 3, 4, 5, 6, 7, 8, 9, 11]);
    expect(await ids(small, {}, { column: 'outcome', descending: false })).toEqual([0, 1, 4, 5, 8, 10, 11, 2, 3, 6, 9, 7]);
    expect(await ids(small, {}, { column: 'extracted', descending: false })).toEqual([9, 8, 10, 2, 0, 1, 11, 3, 6, 4, 5, 7]);
    expect(await ids(small, {}, { column: 'line', descending: true })).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it('a sort is part of the title when it is not file order', async () => {
    const result = await small.query({ version: 1, filter: { outcomes: ['correct'] }, sort: { column: 'steps', descending: true } });
    expect(result.title).toBe('correct · by H ↓ · 7');
  });
});

describe('full-text search', () => {
  it('plain text is case-insensitive, over prompt and response, with where it first matched', async () => {
    const result = await small.query({ version: 1, filter: { search: { text: 'sympy', mode: 'plain' } }, sort: null });
    expect([...result.ids]).toEqual([0, 8, 9, 10]);
    const rows = result.rowsPage(0, 10).rows;
    expect(rows[0]!.match).toEqual({ field: 'response', start: 'First, 2 + 3 = 5.\n\nSo with '.length, end: 'First, 2 + 3 = 5.\n\nSo with sympy'.length });
    expect(rows[1]!.match).toEqual({ field: 'prompt', start: 4, end: 9 });
    expect(await ids(small, { search: { text: 'sympy', mode: 'plain', fields: ['response'] } })).toEqual([0, 10]);
  });

  it('a regex runs on RE2: case-sensitive unless (?i), combined with the other conditions', async () => {
    expect(await ids(small, { search: { text: 'sym.?py', mode: 'regex' } })).toEqual([0, 10]);
    expect(await ids(small, { search: { text: '(?i)sym.?py', mode: 'regex' } })).toEqual([0, 8, 9, 10]);
    const both = await small.query({ version: 1, filter: { suspectedFalsePositive: true, search: { text: 'sympy', mode: 'plain' } }, sort: null });
    expect([...both.ids]).toEqual([10]);
    expect(both.title).toBe('suspected FP · "sympy" · 1');
  });

  it('a pattern RE2 cannot express is a clear error, not a silent empty result', async () => {
    await expect(small.query({ version: 1, filter: { search: { text: '(?=a)b', mode: 'regex' } }, sort: null })).rejects.toThrow(QueryError);
    await expect(small.query({ version: 1, filter: { search: { text: '(a)\\1', mode: 'regex' } }, sort: null })).rejects.toThrow(/cannot be used: .*RE2, a linear-time engine/);
  });

  it('highlights: every match of a page row, and a one-line snippet around the first', async () => {
    const [h] = await small.highlights([10], { text: 'sympy', mode: 'plain' });
    expect(h).toMatchObject({ id: 10, prompt: [[4, 9]], response: [[4, 9]] });
    expect(h!.snippet).toEqual({ field: 'prompt', text: 'Use SymPy to factor x^2 - 1.', ranges: [[4, 9]] });
  });
});

describe('the bundled example, against its known pattern', () => {
  const lines = (result: { rowsPage: (o: number, l: number) => { rows: { line: number }[] } }): number[] => result.rowsPage(0, 100).rows.map((r) => r.line);
  const everyGroup = (position: number): number[] => Array.from({ length: 9 }, (_, g) => 8 * g + position);

  it('one suspected false positive, one tie and two penalised rollouts per group', async () => {
    expect(lines(await example.query({ version: 1, filter: { suspectedFalsePositive: true }, sort: null }))).toEqual(everyGroup(3));
    expect(lines(await example.query({ version: 1, filter: { reasons: ['dropped-tie'] }, sort: null }))).toEqual(everyGroup(6));
    const penalised = lines(await example.query({ version: 1, filter: { penalised: true }, sort: null }));
    expect(penalised).toEqual(everyGroup(4).flatMap((l) => [l, l + 4]));
  });

  it('searches: a plain phrase and a case-insensitive pattern', async () => {
    expect(lines(await example.query({ version: 1, filter: { search: { text: 'HALF OF THAT', mode: 'plain' } }, sort: null }))).toEqual(everyGroup(7));
    expect(lines(await example.query({ version: 1, filter: { search: { text: '(?i)tray 1:', mode: 'regex' } }, sort: null }))).toEqual([8, 16, 24]);
  });

  it('agrees with the analysis on every compound filter of outcome, decision and H', async () => {
    const rollouts = exampleAnalysis.rollouts;
    for (const outcome of ['correct', 'incorrect'] as const) {
      for (const kept of [true, false]) {
        const expected = rollouts.filter((r) => r.outcome.kind === outcome && r.decision.kept === kept && r.decision.steps >= 3).map((r) => r.id);
        expect(await ids(example, { outcomes: [outcome], kept, ranges: [{ column: 'steps', min: 3 }] })).toEqual(expected);
      }
    }
  });
});

describe('paging', () => {
  it('pages are slices of one ordering; a limit is capped; past the end is empty', async () => {
    const result = await small.query({ version: 1, filter: {}, sort: { column: 'meanScore', descending: true } });
    const pages = [result.rowsPage(0, 5), result.rowsPage(5, 5), result.rowsPage(10, 5)];
    expect(pages.map((p) => p.rows.map((r) => r.id))).toEqual([[8, 0, 10, 2, 4], [5, 1, 7, 9, 6], [3, 11]]);
    expect(pages.every((p) => p.total === 12)).toBe(true);
    expect(result.rowsPage(40, 5)).toEqual({ offset: 12, total: 12, rows: [] });
    const all = await example.query({ version: 1, filter: {}, sort: null });
    expect(all.rowsPage(0, 10_000).rows.length).toBeLessThanOrEqual(MAX_PAGE_ROWS);
  });

  it('the same query, however written, is answered from the cache', async () => {
    const a = await small.query({ version: 1, filter: { reasons: ['kept', 'dropped-tie'], ranges: [{ column: 'steps', min: 1 }, { column: 'steps', min: 2 }] }, sort: null });
    const b = await small.query({ sort: null, filter: { ranges: [{ column: 'steps', min: 2 }], reasons: ['dropped-tie', 'kept', 'kept'] }, version: 1 });
    expect(b).toBe(a);
    expect(a.title).toBe('kept or tied · H ≥ 2 · 7');
  });
});

describe('hostile text stays data', () => {
  it('markup and control characters are found as text and come back as text', async () => {
    const result = await small.query({ version: 1, filter: { search: { text: '<script>', mode: 'plain' } }, sort: null });
    expect([...result.ids]).toEqual([4]);
    const [h] = await small.highlights([4], { text: '<script>', mode: 'plain' });
    expect(h!.snippet!.text).toBe('<script>alert(1)</script>  4 * 4 = 16.  The answer is 16.');
    expect(h!.snippet!.ranges).toEqual([[0, 8]]);
    expect(await ids(small, { search: { text: '\\x07', mode: 'regex' } })).toEqual([4]);
    const control = await small.query({ version: 1, filter: { search: { text: '\u0007<b>', mode: 'plain' } }, sort: null });
    expect(control.title).toBe('"\\u0007<b>" · 0');
  });

  it('a catastrophic pattern over a long hostile text finishes (RE2 is linear; a backtracking engine never would)', async () => {
    const hostile = [{ prompt: 'q', response: `${'a'.repeat(200_000)}!` }];
    const table = buildExplorerTable({ rollouts: [{ ...exampleAnalysis.rollouts[0]!, id: 0, response: hostile[0]!.response }] });
    const engine = new ExplorerEngine(table, memoryTexts(hostile));
    for (const pattern of ['(a+)+$', '(a|aa)*b', '(a*)*x']) {
      expect([...(await engine.query({ version: 1, filter: { search: { text: pattern, mode: 'regex' } }, sort: null })).ids]).toEqual([]);
    }
  });
});

describe('the table reads the same from columns as from a list of rollouts', () => {
  it('every row of the fixture and of the example', async () => {
    for (const [path, options] of [['test/fixtures/explore/small.jsonl', { scorer: 'file' as const, settings: { m: 2 } }], ['examples/gsm-rollouts.jsonl', {}]] as const) {
      const analysis = await analyseText(readFileSync(path, 'utf8'), { fileName: path, ...options });
      expect(analysis.rows?.table).toBeDefined();
      const fromColumns = buildExplorerTable(analysis);
      const fromList = buildExplorerTable({ rollouts: analysis.rollouts });
      expect(fromColumns.count).toBe(analysis.rollouts.length);
      for (let id = 0; id < fromColumns.count; id++) expect(fromColumns.row(id)).toEqual(fromList.row(id));
      expect(fromColumns.groupPrompts).toEqual(fromList.groupPrompts);
    }
  });
});
