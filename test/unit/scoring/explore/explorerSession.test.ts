/**
 * The explorer where the editor's worker keeps an analysis of a file on disk: search reads the
 * texts back by byte ranges and finds what a search of the kept texts finds; an export of a
 * selection writes the original bytes of the selected lines (a grouped line trimmed to the
 * selected responses), never over the input, and nothing when the file changed since.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyseWithModel } from '../../../../src/scoring/analysis/modelAnalysis';
import { ModelScorers } from '../../../../src/scoring/scorers/modelScorers';
import { openExplorer, type ExplorerSession } from '../../../../src/scoring/explore/explorerSession';
import { OutputAliasError } from '../../../../src/scoring/output/outputFiles';
import type { TextQuery } from '../../../../src/core/explore/explorerQuery';

const ROOT = join(__dirname, '../../../..');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-explore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const small = readFileSync(join(ROOT, 'test/fixtures/explore/small.jsonl'), 'utf8');
const example = readFileSync(join(ROOT, 'examples/gsm-rollouts.jsonl'), 'utf8');

/** The small fixture with a BOM, CRLF on some lines, a blank line and a bad line between records. */
function awkward(): string {
  const lines = small.split('\n').filter(Boolean);
  return `\uFEFF${lines.slice(0, 3).join('\r\n')}\r\n\n{not json\n${lines.slice(3).join('\n')}\n`;
}

async function sessions(text: string, name: string, settings = { m: 2 }): Promise<{ memory: ExplorerSession; disk: ExplorerSession; path: string }> {
  const path = join(dir, name);
  writeFileSync(path, text);
  const options = { fileName: path, settings, scorer: 'file' as const, model: null, models: new ModelScorers(), signal: new AbortController().signal };
  const whole = await analyseWithModel(text, options);
  const fromDisk = await analyseWithModel({ kind: 'path', path }, options);
  expect(fromDisk.lines).toBeDefined();
  return {
    memory: openExplorer({ analysis: whole.analysis, disk: null }),
    // Not read in ahead: these tests read the texts back from disk, as a large file's first search does.
    disk: openExplorer({ analysis: fromDisk.analysis, disk: { path, lines: fromDisk.lines! } }, path, { warmTextBytes: 0 }),
    path,
  };
}

const SEARCHES: TextQuery[] = [
  { text: 'sympy', mode: 'plain' },
  { text: '(?i)sym.?py', mode: 'regex', fields: ['prompt'] },
  { text: '<script>', mode: 'plain' },
  { text: '\\d \\* \\d = 1\\d', mode: 'regex' },
  { text: 'HALF OF THAT', mode: 'plain' },
];

describe('search over texts read back from disk', () => {
  for (const [name, text] of [['awkward.jsonl', awkward()], ['example.jsonl', example]] as const) {
    it(`${name}: the same hits, first matches and highlights as the kept texts`, async () => {
      const { memory, disk } = await sessions(text, name);
      for (const search of SEARCHES) {
        const query = { version: 1, filter: { search }, sort: null };
        const [a, b] = [await memory.engine.query(query), await disk.engine.query(query)];
        expect([...b.ids]).toEqual([...a.ids]);
        expect(b.rowsPage(0, 100).rows.map((r) => r.match)).toEqual(a.rowsPage(0, 100).rows.map((r) => r.match));
        const page = [...a.ids].slice(0, 5);
        expect(await disk.engine.highlights(page, search)).toEqual(await memory.engine.highlights(page, search));
      }
    });
  }

  it('a search can be cancelled while it reads', async () => {
    const { disk } = await sessions(example, 'cancel.jsonl');
    const controller = new AbortController();
    controller.abort();
    await expect(disk.engine.query({ version: 1, filter: { search: { text: 'x', mode: 'plain' } }, sort: null }, { signal: controller.signal })).rejects.toThrow();
  });
});

describe('a small file\'s texts read in ahead of the first search', () => {
  async function fromDisk(name: string, warmTextBytes?: number): Promise<ExplorerSession> {
    const path = join(dir, name);
    writeFileSync(path, example);
    const options = { fileName: path, settings: { m: 2 }, scorer: 'file' as const, model: null, models: new ModelScorers(), signal: new AbortController().signal };
    const analysed = await analyseWithModel({ kind: 'path', path }, options);
    return openExplorer({ analysis: analysed.analysis, disk: { path, lines: analysed.lines! } }, path, warmTextBytes === undefined ? {} : { warmTextBytes });
  }

  it('are kept without a search, and the first search finds what a search of the file finds', async () => {
    const warmed = await fromDisk('warm.jsonl');
    const cold = await fromDisk('cold.jsonl', 0);
    await vi.waitFor(() => expect(warmed.keptTexts?.complete).toBe(true), { timeout: 10_000 });
    expect(warmed.keptTexts!.bytes).toBeGreaterThan(0);
    expect(cold.keptTexts?.held).toBe(0);
    for (const search of SEARCHES) {
      const query = { version: 1, filter: { search }, sort: null };
      expect([...(await warmed.engine.query(query)).ids]).toEqual([...(await cold.engine.query(query)).ids]);
    }
    warmed.close();
    cold.close();
  });

  it('a file over the limit is not read in until it is searched', async () => {
    const session = await fromDisk('large.jsonl', example.length - 1);
    // The warm-up would start a macrotask after opening: give it several, then look.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(session.keptTexts?.held).toBe(0);
    await session.engine.query({ version: 1, filter: { search: { text: 'x', mode: 'plain' } }, sort: null });
    expect(session.keptTexts?.complete).toBe(true);
    session.close();
  });
});

describe('export of a selection', () => {
  it('whole lines keep their bytes (BOM, CRLF); a grouped line keeps only the selected responses and their entries', async () => {
    const text = awkward();
    const { disk, path } = await sessions(text, 'export.jsonl');
    const out = join(dir, 'selection.jsonl');
    // Rollout 0 is line 1 (BOM, CRLF); 1 is line 2 (CRLF); 9 and 10 are responses 2 and 3 of the grouped line.
    const written = await disk.exportSelection([10, 0, 9, 1, 1], out);
    expect(written).toEqual({ lines: 3, rollouts: 4 });
    const lines = text.split(/(?<=\n)/);
    // The grouped line as written, with the first response and its entries in the arrays beside it left out.
    const trimmed = small.split('\n')[8]!
      .replace('["Factor.\\n\\n(x-1)(x+1)", "Guess.', '["Guess.')
      .replace('"score": [1, 0, 1]', '"score": [0, 1]')
      .replace('[[0.9, 0.9], [0.5, 0.5], [0.4, 0.8]]', '[[0.5, 0.5], [0.4, 0.8]]');
    expect(trimmed).not.toBe(small.split('\n')[8]);
    expect(readFileSync(out, 'utf8')).toBe(`${lines[0]}${lines[1]}${trimmed}\n`);
    expect(readFileSync(out).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('refuses to write over the input, by any name', async () => {
    const { disk, path } = await sessions(small, 'alias.jsonl');
    const link = join(dir, 'alias-link.jsonl');
    symlinkSync(path, link);
    await expect(disk.exportSelection([0], path)).rejects.toThrow(OutputAliasError);
    await expect(disk.exportSelection([0], link)).rejects.toThrow(/same file as the input/);
    expect(readFileSync(path, 'utf8')).toBe(small);
  });

  it('writes nothing when the file changed since the analysis, or when nothing is selected', async () => {
    const { disk, path } = await sessions(small, 'changed.jsonl');
    const lines = small.split('\n');
    writeFileSync(path, [lines[0], lines[8], ...lines.slice(1, 8), ...lines.slice(9)].join('\n'));
    const out = join(dir, 'changed-out.jsonl');
    await expect(disk.exportSelection([1], out)).rejects.toThrow(/changed since it was analysed: line 2 holds 3 rollouts, the analysis found 1/);
    await expect(disk.exportSelection([], out)).rejects.toThrow(/no rollout is selected/);
    expect(() => readFileSync(out)).toThrow();
  });

  it('a JSON array: each selected element becomes one line of its own text', async () => {
    const elements = small.split('\n').filter(Boolean);
    const text = `[\n  ${elements.join(',\n  ')}\n]\n`;
    const path = join(dir, 'array.json');
    writeFileSync(path, text);
    const options = { fileName: path, settings: { m: 2 }, scorer: 'file' as const, model: null, models: new ModelScorers(), signal: new AbortController().signal };
    const { analysis } = await analyseWithModel({ kind: 'path', path }, options);
    const session = openExplorer({ analysis, disk: null }, path);
    const out = join(dir, 'array-selection.jsonl');
    await session.exportSelection([4, 11], out);
    expect(readFileSync(out, 'utf8')).toBe(`${elements[4]}\n${elements[9]}\n`);
    const hits = await session.engine.query({ version: 1, filter: { search: { text: 'sympy', mode: 'plain' } }, sort: null });
    expect([...hits.ids]).toEqual([0, 8, 9, 10]);
  });
});
