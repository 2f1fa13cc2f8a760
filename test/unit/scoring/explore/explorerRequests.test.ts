/**
 * The Rollout Explorer and the Compare view as the editor asks them, through the built analysis
 * worker (`dist/analysisWorker.js`) that keeps the analyses: a filter's rows and title, pages,
 * search highlights, a pattern RE2 refuses named as such, an export of a selection as the line's
 * own bytes (and of a whole query), a re-analysis answered from the new analysis, and two files
 * compared prompt by prompt with both sides' rollouts of a prompt.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisClient } from '../../../../src/scoring/analysis/analysisClient';
import type { AnalyseRequest } from '../../../../src/protocol/analysis';

const ROOT = resolve(__dirname, '../../../..');
const WORKER = join(ROOT, 'dist/analysisWorker.js');
const fixture = readFileSync(join(ROOT, 'test/fixtures/e2e/rollouts.jsonl'), 'utf8');
const lines = fixture.split('\n');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-explorer-requests-'));
const a = join(dir, 'a.jsonl');
const b = join(dir, 'b.jsonl');
const keyA = `file://${a}`;
const keyB = `file://${b}`;
/** Side b: every train answer wrong (a regression there), every apples answer right. */
const later = readFileSync(join(ROOT, 'test/fixtures/e2e/later.jsonl'), 'utf8');
let client: AnalysisClient;

function request(path: string, key: string): Omit<AnalyseRequest, 'type' | 'requestId'> {
  return { documentKey: key, fileName: path, source: { kind: 'path', path }, settings: {}, scorer: 'file', model: null };
}

const suspected = { version: 1, filter: { suspectedFalsePositive: true }, sort: null };

beforeAll(async () => {
  writeFileSync(a, fixture);
  writeFileSync(b, later);
  client = new AnalysisClient(WORKER);
  await Promise.all([client.analyse(request(a, keyA)).result, client.analyse(request(b, keyB)).result]);
});
afterAll(() => {
  client?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('explorer requests in the analysis worker', () => {
  it('answers a filter with its rows, its title and the reward columns', async () => {
    const answer = await client.explore(keyA, { method: 'query', query: suspected, offset: 0, limit: 200 });
    expect(answer.title).toBe('suspected FP · 4');
    expect(answer.page.rows.map((r) => r.line)).toEqual([2, 3, 10, 12]);
    expect(answer.page.rows.every((r) => r.suspectedFalsePositive && r.evidence)).toBe(true);
    expect(answer.highlights).toBeNull();
    const sorted = await client.explore(keyA, { method: 'query', query: { ...suspected, sort: { column: 'responseChars', descending: false } }, offset: 1, limit: 2 });
    expect(sorted.page).toMatchObject({ offset: 1, total: 4 });
    expect(sorted.page.rows.map((r) => r.line)).toEqual([3, 10]);
  });

  it('searches and sends the page\'s highlights; a pattern RE2 cannot run is refused with its reason', async () => {
    const answer = await client.explore(keyA, { method: 'query', query: { version: 1, filter: { search: { text: 'COVERS', mode: 'plain' } }, sort: null }, offset: 0, limit: 50 });
    expect(answer.page.rows.map((r) => r.line)).toEqual([10]);
    const [hl] = answer.highlights ?? [];
    const response = (JSON.parse(lines[9]!) as { response: string }).response;
    expect(hl?.response.map(([s, e]) => response.slice(s, e))).toEqual(['covers']);
    expect(hl?.snippet?.text.slice(...hl.snippet.ranges[0]!)).toBe('covers');
    await expect(client.explore(keyA, { method: 'query', query: { version: 1, filter: { search: { text: '(a)\\1', mode: 'regex' } }, sort: null }, offset: 0, limit: 50 }))
      .rejects.toThrow(/RE2|backreference|invalid/i);
  });

  it('exports a selection as its lines\' own bytes, and a whole query when nothing is selected', async () => {
    const { page } = await client.explore(keyA, { method: 'query', query: suspected, offset: 0, limit: 10 });
    const line10 = page.rows.find((r) => r.line === 10)!.id;
    const one = join(dir, 'one.jsonl');
    expect(await client.explore(keyA, { method: 'export', query: suspected, ids: [line10], input: a, output: one })).toMatchObject({ lines: 1, rollouts: 1 });
    expect(readFileSync(one, 'utf8')).toBe(lines[9] + '\n');
    const all = join(dir, 'all.jsonl');
    expect(await client.explore(keyA, { method: 'export', query: suspected, ids: null, input: a, output: all })).toMatchObject({ lines: 4 });
    expect(readFileSync(all, 'utf8')).toBe([2, 3, 10, 12].map((l) => lines[l - 1] + '\n').join(''));
    await expect(client.explore(keyA, { method: 'export', query: suspected, ids: [line10], input: a, output: a })).rejects.toThrow(/input/);
    expect(readFileSync(a, 'utf8')).toBe(fixture);
  });

  it('compares two files prompt by prompt, largest regression first, and gives a prompt\'s two sides', async () => {
    const { comparison } = await client.explore(keyA, { method: 'compare', other: keyB });
    expect(comparison.prompts.map((p) => [p.prompt.slice(0, 7), p.nA, p.nB, Number(p.delta.toFixed(4))])).toEqual([['A train', 6, 6, -0.8333], ['Maya ha', 6, 6, 0.3333]]);
    expect(comparison.prompts[0]).not.toHaveProperty('rowsA');
    const { sides } = await client.explore(keyA, { method: 'promptSides', other: keyB, index: 0 });
    expect(sides.a.map((r) => r.outcome).filter((o) => o === 'correct')).toHaveLength(5);
    expect(sides.b.every((r) => r.outcome === 'incorrect' && r.extracted === '90')).toBe(true);
    await expect(client.explore(keyA, { method: 'promptSides', other: keyB, index: 7 })).rejects.toThrow(/no prompt 8/);
  });

  it('answers from the new analysis after the file is analysed again, and names a file never analysed', async () => {
    writeFileSync(a, lines.slice(0, 6).join('\n') + '\n');
    await client.analyse(request(a, keyA)).result;
    const answer = await client.explore(keyA, { method: 'query', query: { version: 1, filter: {}, sort: null }, offset: 0, limit: 200 });
    expect(answer.title).toBe('all rollouts · 6');
    await expect(client.explore('file:///nowhere.jsonl', { method: 'query', query: suspected, offset: 0, limit: 10 })).rejects.toThrow(/not been analysed/);
  });
});
