/**
 * The Rollout Explorer over a whole run, as its worker answers it (`RunRequests`): the step files
 * of a generated run read into one table, each row with its step and the file and line it came
 * from, queries across steps, the text cap, and the first rows before the last file is read.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { QUERY_VERSION } from '../../../../src/core/explore/explorerQuery';
import { RunRequests } from '../../../../src/scoring/explore/runRequests';
import type { RunProgress } from '../../../../src/scoring/explore/runExplorer';
import { generatedRun, ONSET, STEPS } from '../../core/health/generatedRun';

const run = generatedRun({ inject: 'reward-visible', prompts: 3, perPrompt: 4 });
const reading = { split: 'train' as const, settings: {}, scorer: 'auto' as const };
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'run-explorer-'));
  run.forEach((records, i) => writeFileSync(join(dir, `${i + 1}.jsonl`), records.map((r) => JSON.stringify(r)).join('\n') + '\n'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const query = (filter: object, sort: object | null = null) => ({ method: 'query' as const, query: { version: QUERY_VERSION, filter, sort }, offset: 0, limit: 500 });

describe('a run in the Explorer', () => {
  const requests = new RunRequests();
  const progress: RunProgress[] = [];

  beforeAll(async () => {
    await requests.open('run', { path: dir, ...reading }, (p) => progress.push(p));
  }, 120_000);

  test('is every rollout of every step file, each with its step', async () => {
    const all = await requests.answer('run', query({}));
    const total = run.reduce((n, records) => n + records.length, 0);
    expect(all.method === 'query' && all.page.total).toBe(total);
    if (all.method !== 'query') return;
    const steps = new Set(all.page.rows.map((r) => r.step));
    expect(steps.size).toBeGreaterThan(1);
    // Rows come in run order: steps never go back.
    const inOrder = all.page.rows.map((r) => r.step as number);
    expect(inOrder).toEqual([...inOrder].sort((a, b) => a - b));
  });

  test('names the file and line each row came from, and the record there is that rollout', async () => {
    const answer = await requests.answer('run', query({ ranges: [{ column: 'step', min: 25, max: 25 }] }));
    if (answer.method !== 'query') throw new Error('no query answer');
    expect(answer.page.total).toBe(run[24]!.length);
    for (const row of answer.page.rows.slice(0, 5)) {
      const place = await requests.answer('run', { method: 'place', rolloutId: row.id });
      if (place.method !== 'place') throw new Error('no place');
      expect(place.file).toBe(join(dir, '25.jsonl'));
      expect(row.file).toBe(place.file);
      const record = JSON.parse(readFileSync(place.file, 'utf8').split('\n')[place.line - 1]!) as Record<string, unknown>;
      expect(record['step']).toBe(25);
      expect(String(record['output']).length).toBe(row.responseChars);
    }
  });

  test('answers one query across steps: every rollout shown its reward from a step on', async () => {
    const from = ONSET + 2;
    // Counted from the records, not by the detector: the generator writes the reward into the reply.
    const expected = run.slice(from - 1).flat().filter((r) => String(r['output']).includes('reward=')).length;
    expect(expected).toBeGreaterThan(0);
    const answer = await requests.answer('run', query({ health: ['reward-visible'], ranges: [{ column: 'step', min: from }] }, { column: 'step', descending: true }));
    if (answer.method !== 'query') throw new Error('no query answer');
    expect(answer.page.total).toBe(expected);
    expect(answer.title).toBe(`step ≥ ${from} · reward visible to the policy · by step ↓ · ${expected}`);
    expect(answer.page.rows[0]!.step).toBe(STEPS);
    expect(answer.page.rows.every((r) => r.health?.includes('reward-visible'))).toBe(true);
    // Before the onset no rollout shows it.
    const before = await requests.answer('run', query({ health: ['reward-visible'], ranges: [{ column: 'step', max: ONSET - 1 }] }));
    expect(before.method === 'query' && before.page.total).toBe(0);
  });

  test('shows its first rows before the last file is read', () => {
    const early = progress.find((p) => !p.done && p.rows > 0);
    expect(early).toBeDefined();
    expect(early!.filesRead).toBeLessThan(STEPS);
    expect(progress[progress.length - 1]).toMatchObject({ done: true, filesRead: STEPS, files: STEPS });
  });
});

describe('a run whose texts pass the cap', () => {
  test('keeps texts only up to it, and a search says which rollouts it covered', async () => {
    const requests = new RunRequests(undefined, 40_000);
    const done = await requests.open('capped', { path: dir, ...reading }, () => undefined);
    expect(done.note).toMatch(/^search covers the first [\d,]+ of [\d,]+ rollouts \(texts kept up to 0 MiB\)$/);
    const answer = await requests.answer('capped', query({ search: { text: 'what is', mode: 'plain' } }));
    if (answer.method !== 'query') throw new Error('no query answer');
    const covered = Number(/first ([\d,]+) of/.exec(answer.title)?.[1]?.replace(/,/g, ''));
    expect(covered).toBeGreaterThan(0);
    expect(answer.page.total).toBeLessThanOrEqual(covered);
    expect(answer.title).toContain('search covers the first');
    // Figures are not capped: every row is there to filter.
    const all = await requests.answer('capped', query({}));
    expect(all.method === 'query' && all.page.total).toBe(run.reduce((n, r) => n + r.length, 0));
  }, 120_000);
});
