/**
 * Texts read back from disk and kept for the searches after the first: the hits (count, rollouts,
 * first matches, highlights, in non-Latin-1 and astral text too) are those of the disk path and of
 * the texts an analysis of the whole text keeps; the second search reads nothing from disk; the
 * budget is kept to (beyond it the rest is read from disk, with the same answers); a search
 * cancelled half-way delivers nothing, keeps the texts it read, and the next goes on from there.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyseWithModel } from '../../../../src/scoring/analysis/modelAnalysis';
import { ModelScorers } from '../../../../src/scoring/scorers/modelScorers';
import { openExplorer, type ExplorerSession } from '../../../../src/scoring/explore/explorerSession';
import { processTextBudget, TextBudget } from '../../../../src/scoring/explore/cachedTexts';
import { ExplorerRequests } from '../../../../src/scoring/explore/explorerRequests';
import type { KeptAnalysis } from '../../../../src/scoring/analysis/rolloutDetails';
import type { TextQuery } from '../../../../src/core/explore/explorerQuery';

const ROOT = join(__dirname, '../../../..');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-cached-texts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const small = readFileSync(join(ROOT, 'test/fixtures/explore/small.jsonl'), 'utf8');

/** The small fixture and lines of accented, Greek, CJK and astral (emoji, math letter) text, one line with no rollout. */
const unicode = small + [
  { uid: 'e', prompt: 'Café: what is π × 2? 🧮', response: 'π × 2 ≈ 6.28 😀 so sympy says 2π.\n\nThe answer is 2π.', answer: '2π', score: 1 },
  { uid: 'e', prompt: 'Café: what is π × 2? 🧮', response: '𝑥 = 6.28; 数学 sympy 😀😀.\n\nAnswer: 6.28', answer: '2π', score: 0 },
  { uid: 'f', prompt: 'Naïve ÜBER question: ß?', response: 'Straße über SYMPY: ÜBER 𝟘𝟙.\n\nDone, café.', answer: 'x', score: 1 },
].map((r) => JSON.stringify(r)).join('\n') + '\n{"note": "no rollout here"}\n';

async function analyse(text: string, name: string): Promise<{ whole: Awaited<ReturnType<typeof analyseWithModel>>; fromDisk: Awaited<ReturnType<typeof analyseWithModel>>; path: string }> {
  const path = join(dir, name);
  writeFileSync(path, text);
  const options = { fileName: path, settings: { m: 2 }, scorer: 'file' as const, model: null, models: new ModelScorers(), signal: new AbortController().signal };
  const whole = await analyseWithModel(text, options);
  const fromDisk = await analyseWithModel({ kind: 'path', path }, options);
  expect(fromDisk.lines).toBeDefined();
  return { whole, fromDisk, path };
}

function diskSession(fromDisk: Awaited<ReturnType<typeof analyseWithModel>>, path: string, budget: TextBudget): ExplorerSession {
  return openExplorer({ analysis: fromDisk.analysis, disk: { path, lines: fromDisk.lines! } }, path, { textBudget: budget });
}

const SEARCHES: TextQuery[] = [
  { text: 'sympy', mode: 'plain' },
  { text: 'über', mode: 'plain' },
  { text: '😀', mode: 'plain' },
  { text: '(?i)sym.?py', mode: 'regex', fields: ['response'] },
  { text: '[𝑥𝟘-𝟡]+|数学|π', mode: 'regex' },
  { text: 'café', mode: 'plain', fields: ['prompt'] },
  { text: '\\d \\* \\d = 1\\d', mode: 'regex' },
];

/** Every search's ids, first matches and highlights of the first rows. */
async function answers(session: ExplorerSession): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const search of SEARCHES) {
    const result = await session.engine.query({ version: 1, filter: { search }, sort: null });
    const ids = [...result.ids];
    out.push(ids, result.rowsPage(0, 100).rows.map((r) => r.match), await session.engine.highlights(ids.slice(0, 6), search));
  }
  return out;
}

describe('texts kept from disk', () => {
  it('give the same hits, first matches and highlights as the disk path and the kept texts, without reading the file again', async () => {
    const { whole, fromDisk, path } = await analyse(unicode, 'unicode.jsonl');
    const memory = openExplorer({ analysis: whole.analysis, disk: null });
    const expected = await answers(memory);
    expect((expected[0] as number[]).length).toBeGreaterThan(3);
    expect(expected.filter((a, i) => i % 3 === 0).every((ids) => (ids as number[]).length > 0)).toBe(true);
    // No budget: every search reads the file (today's disk path).
    const diskOnly = diskSession(fromDisk, path, new TextBudget(0));
    expect(await answers(diskOnly)).toEqual(expected);
    expect(diskOnly.keptTexts).toMatchObject({ held: 0, capped: true, complete: false });

    const budget = new TextBudget(1 << 20);
    const cached = diskSession(fromDisk, path, budget);
    await cached.engine.query({ version: 1, filter: { search: { text: 'first', mode: 'plain' } }, sort: null });
    expect(cached.keptTexts).toMatchObject({ held: fromDisk.analysis.rollouts.length, complete: true, capped: false });
    expect(budget.inUse).toBe(cached.keptTexts!.bytes);
    // The file is gone: what the searches find now comes from the kept texts.
    rmSync(path);
    expect(await answers(cached)).toEqual(expected);
    cached.close();
    expect(budget.inUse).toBe(0);
  });

  it('over the budget: the texts that fit are kept, the rest read from disk, the answers the same', async () => {
    const { whole, fromDisk, path } = await analyse(unicode, 'capped.jsonl');
    const expected = await answers(openExplorer({ analysis: whole.analysis, disk: null }));
    const budget = new TextBudget(600);
    const session = diskSession(fromDisk, path, budget);
    expect(await answers(session)).toEqual(expected);
    const kept = session.keptTexts!;
    expect(kept.capped).toBe(true);
    expect(kept.held).toBeGreaterThan(0);
    expect(kept.held).toBeLessThan(fromDisk.analysis.rollouts.length);
    expect(budget.inUse).toBeLessThanOrEqual(600);
    expect(budget.inUse).toBe(kept.bytes);
    expect(await answers(session)).toEqual(expected);
  });

  it('a search cancelled half-way delivers nothing and keeps what it read; the next goes on from there', async () => {
    // 20,000 rollouts: the disk path reads them in chunks of 8,192.
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) lines.push(JSON.stringify({ uid: `g${i >> 2}`, prompt: `Problem ${i >> 2}: ${i % 5} + 1?`, response: i % 997 === 0 ? `needle ${i} 😀` : `It is ${(i % 5) + 1}.`, answer: String((i % 5) + 1), score: 1 }));
    const text = `${lines.join('\n')}\n`;
    const { fromDisk, path } = await analyse(text, 'cancel.jsonl');
    const session = diskSession(fromDisk, path, new TextBudget(64 << 20));
    const search = { version: 1, filter: { search: { text: 'needle \\d+ 😀', mode: 'regex' as const } }, sort: null };
    const controller = new AbortController();
    const delivered = session.engine.query(search, { signal: controller.signal, onProgress: (done) => { if (done >= 8192) controller.abort(); } });
    await expect(delivered).rejects.toThrow();
    const kept = session.keptTexts!;
    expect(kept.held).toBeGreaterThanOrEqual(8192);
    expect(kept.held).toBeLessThan(20_000);
    const result = await session.engine.query(search);
    expect([...result.ids]).toEqual(Array.from({ length: 21 }, (_, k) => k * 997));
    expect(kept.complete).toBe(true);
    const [first] = await session.engine.highlights([997], search.filter.search);
    expect(first!.response).toEqual([[0, 'needle 997 😀'.length]]);
  });

  it('a file\'s kept texts give their bytes back to the process when its analysis is replaced or dropped', async () => {
    const { fromDisk, path } = await analyse(unicode, 'forget.jsonl');
    const keptOf = (): KeptAnalysis => ({ analysis: fromDisk.analysis, disk: { path, lines: fromDisk.lines! } });
    const analyses = new Map<string, KeptAnalysis>([['doc', keptOf()]]);
    const requests = new ExplorerRequests((key) => analyses.get(key));
    const before = processTextBudget.inUse;
    const call = { method: 'query' as const, query: { version: 1, filter: { search: { text: 'sympy', mode: 'plain' } }, sort: null }, offset: 0, limit: 10 };
    const first = await requests.answer('doc', call, new AbortController().signal);
    const held = processTextBudget.inUse - before;
    expect(held).toBeGreaterThan(0);
    // A new analysis of the file: the old explorer's texts go, the new one keeps its own on its first search.
    analyses.set('doc', keptOf());
    const again = await requests.answer('doc', call, new AbortController().signal);
    expect(again).toEqual(first);
    expect(processTextBudget.inUse - before).toBe(held);
    requests.forget('doc');
    expect(processTextBudget.inUse).toBe(before);
  });
});
