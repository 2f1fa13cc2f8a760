/** The Explorer's list of rollouts by place: what a Run Dashboard health point opens. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { buildExplorerTable } from '../../../../src/core/explore/explorerTable';
import { ExplorerEngine } from '../../../../src/core/explore/explorerEngine';
import { MAX_LISTED_ROLLOUTS, parseExplorerQuery, QueryError } from '../../../../src/core/explore/explorerQuery';
import { memoryTexts } from '../../../../src/core/explore/textSearch';

describe('a list of rollouts in an Explorer query', () => {
  it('passes exactly the listed rollouts, with the list\'s words in the title', async () => {
    const analysis = await analyseText(readFileSync('test/fixtures/explore/small.jsonl', 'utf8'), { fileName: 'small.jsonl', scorer: 'file', settings: { m: 2 } });
    const engine = new ExplorerEngine(buildExplorerTable(analysis), memoryTexts(analysis.rollouts));
    const query = parseExplorerQuery({ version: 1, filter: { rollouts: { label: 'step 3: shown their reward', places: [{ line: 5, index: 0 }, { line: 2, index: 0 }, { line: 5, index: 0 }, { line: 99, index: 0 }] } }, sort: null });
    const result = await engine.query(query);
    expect(result.rowsPage(0, 10).rows.map((r) => r.line)).toEqual([2, 5]);
    expect(result.title).toBe('step 3: shown their reward · 2');
  });

  it('is canonical (sorted, without repeats) and refuses what is not a list of places', () => {
    const q = parseExplorerQuery({ version: 1, filter: { rollouts: { label: 'x', places: [{ line: 9, index: 1 }, { line: 2, index: 0 }, { line: 9, index: 1 }] } } });
    expect(q.filter.rollouts!.places).toEqual([{ line: 2, index: 0 }, { line: 9, index: 1 }]);
    expect(() => parseExplorerQuery({ version: 1, filter: { rollouts: { label: 'x', places: [{ line: -1, index: 0 }] } } })).toThrow(QueryError);
    const many = Array.from({ length: MAX_LISTED_ROLLOUTS + 1 }, (_, i) => ({ line: i + 1, index: 0 }));
    expect(() => parseExplorerQuery({ version: 1, filter: { rollouts: { label: 'x', places: many } } })).toThrow(/at most 1000/);
  });
});
