/**
 * A superseded search delivers nothing: through the built analysis worker, a search over a file
 * read from disk is cancelled by the next query (the worker stops its scan and says cancelled)
 * while the next one is answered; the pages of one query share a signal; nothing is cancelled
 * before the file's explorer has answered once (its first query builds the table).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisClient } from '../../../../src/scoring/analysis/analysisClient';
import { SupersededQueries } from '../../../../src/vscode/explorer/supersededQueries';

const ROOT = resolve(__dirname, '../../../..');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-superseded-'));
const path = join(dir, 'many.jsonl');
const key = `file://${path}`;
let client: AnalysisClient;

const search = (text: string) => ({ version: 1, filter: { search: { text, mode: 'regex' } }, sort: null });
const everything = { version: 1, filter: {}, sort: null };

beforeAll(async () => {
  const lines: string[] = [];
  for (let i = 0; i < 30_000; i++) lines.push(JSON.stringify({ uid: `g${i >> 2}`, prompt: `Problem ${i >> 2}?`, response: i % 1000 === 0 ? `needle ${i}` : `It is ${i % 7}.`, answer: String(i % 7), score: 1 }));
  writeFileSync(path, `${lines.join('\n')}\n`);
  client = new AnalysisClient(join(ROOT, 'dist/analysisWorker.js'));
  await client.analyse({ documentKey: key, fileName: path, source: { kind: 'path', path }, settings: {}, scorer: 'file', model: null }).result;
});
afterAll(() => {
  client?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('superseded explorer searches', () => {
  it('signals: pages of one query share one; a search is cancelled by the next query; none before the first answer', () => {
    const queries = new SupersededQueries();
    expect(queries.signalFor(search('a'))).toBeUndefined();
    queries.answered(queries.now);
    const a = queries.signalFor(search('a'))!;
    expect(queries.signalFor(search('a'))).toBe(a);
    expect(queries.signalFor(everything)).toBeUndefined();
    expect(a.aborted).toBe(true);
    const b = queries.signalFor(search('b'))!;
    const epoch = queries.now;
    queries.reset();
    expect(b.aborted).toBe(true);
    queries.answered(epoch);
    expect(queries.signalFor(search('c'))).toBeUndefined();
  });

  it('through the worker: the superseded search is cancelled there and delivers nothing; the next is answered', async () => {
    let restarts = 0;
    client.onDidRestart(() => restarts++);
    const queries = new SupersededQueries();
    const epoch = queries.now;
    await client.explore(key, { method: 'query', query: everything, offset: 0, limit: 10 }, queries.signalFor(everything));
    queries.answered(epoch);
    const first = search('needle \\d+');
    const stale = client.explore(key, { method: 'query', query: first, offset: 0, limit: 10 }, queries.signalFor(first));
    const next = search('needle 2\\d+');
    const fresh = client.explore(key, { method: 'query', query: next, offset: 0, limit: 50 }, queries.signalFor(next));
    await expect(stale).rejects.toMatchObject({ name: 'AbortError' });
    const answer = await fresh;
    expect(answer.page.total).toBe(11);
    expect(answer.page.rows.map((r) => r.line)).toEqual([2001, ...Array.from({ length: 10 }, (_, k) => 20_001 + k * 1000)]);
    // The worker is the same one: the cancelled search let it go in time, and the first query's answer still stands.
    const again = await client.explore(key, { method: 'query', query: first, offset: 0, limit: 50 });
    expect(again.page.total).toBe(30);
    expect(restarts).toBe(0);
  });
});
