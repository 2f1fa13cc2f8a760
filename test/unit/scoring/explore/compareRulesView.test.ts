/**
 * The Compare Rules view's figures as the editor gets them, from the built analysis worker that
 * keeps the analysis: every rule's counts on a small file worked out by hand, the same JSON
 * `prof-lens rules --json` prints, and the Explorer's `disagree` filter returning exactly the
 * rollouts one rule keeps and the other drops.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisClient } from '../../../../src/scoring/analysis/analysisClient';
import type { AnalyseRequest } from '../../../../src/protocol/analysis';
import { runCli } from '../../../../src/cli/main';
import { RULES, withDefaults } from '../../../../src/core/rules/registry';

const ROOT = resolve(__dirname, '../../../..');
const WORKER = join(ROOT, 'dist/analysisWorker.js');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-rules-view-'));
const file = join(dir, 'two-groups.jsonl');
const key = `file://${file}`;
let client: AnalysisClient;

/** Each rule's parameters as the view sends them: defaults, with RoC's group size set to the file's groups. */
const params = Object.fromEntries(RULES.map((r) => [r.name, withDefaults(r, r.name === 'roc' ? { down_sample_to_n: 4 } : {})]));

function request(): Omit<AnalyseRequest, 'type' | 'requestId'> {
  return { documentKey: key, fileName: file, source: { kind: 'path', path: file }, settings: { m: 2 }, scorer: 'file', model: null };
}

beforeAll(async () => {
  writeFileSync(file, readFileSync(join(ROOT, 'test/fixtures/rules/two-groups.jsonl')));
  client = new AnalysisClient(WORKER);
  await client.analyse(request()).result;
});
afterAll(() => {
  client?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('Compare Rules figures from the analysis worker', () => {
  it('counts what each rule keeps, as worked out by hand', async () => {
    const { figures } = await client.explore(key, { method: 'rules', params });
    // Rollouts 1–8 are lines 1–8. Group A: 1 ✓ (steps 0.9), 2 ✓ (a step at 0.2: the one suspected
    // false positive), 3 ✗ (0.9), 4 ✗ (0.1). Group B: 5–8 ✓, all at 0.9.
    expect([figures.rollouts, figures.groups, figures.suspected]).toEqual([8, 2, 1]);
    const byRule = Object.fromEntries(figures.rules.map((r) => [r.rule, [r.kept, r.dropped, r.keptCorrect, r.keptIncorrect, r.falsePositivesKept, r.groupsDroppedWhole, r.groupsTieBroken]]));
    expect(byRule).toEqual({
      // m = 2: A keeps its most trusted right answer (1) and its least trusted wrong one (4);
      // B's four are equal, so file order decides (the earlier are removed): 7 and 8. One group tie-broken.
      prof: [4, 4, 3, 1, 0, 0, 1],
      // GRPO without filter_groups, and GFPO with num_remains_in_group unset, keep everything.
      grpo: [8, 0, 6, 2, 1, 0, 0],
      gfpo: [8, 0, 6, 2, 1, 0, 0],
      // Accuracy A 2/4 = 0.5 is inside [0.2, 0.8]; B 4/4 = 1 is outside: B dropped whole.
      prime: [4, 4, 2, 2, 1, 1, 0],
      // The GenRM verdict comes from the scorer here: 2's step at 0.2 drops it, nothing else.
      fapo: [7, 1, 5, 2, 0, 0, 0],
      // down_sample_to_n = 4: A (rewards 1, 1, 0, 0) is exactly that size and kept; B's rewards are all equal.
      roc: [4, 4, 2, 2, 1, 1, 0],
    });
    const pair = (a: string, b: string) => figures.overlaps.find((o) => o.a === a && o.b === b);
    expect(pair('prof', 'prime')).toEqual({ a: 'prof', b: 'prime', both: 2, onlyA: 2, onlyB: 2 });
    expect(pair('prof', 'fapo')).toEqual({ a: 'prof', b: 'fapo', both: 4, onlyA: 0, onlyB: 3 });
    expect(pair('prime', 'roc')).toEqual({ a: 'prime', b: 'roc', both: 4, onlyA: 0, onlyB: 0 });
    expect(figures.overlaps).toHaveLength((RULES.length * (RULES.length - 1)) / 2);
  });

  it('are the numbers prof-lens rules --json prints on the same file', async () => {
    let out = '';
    const code = await runCli(['rules', file, '--json', '--m', '2', '--scorer', 'file', '--rule-param', 'roc.down_sample_to_n=4'], { stdout: (t) => (out += t), stderr: () => undefined, isStderrTty: false, cwd: dir });
    expect(code).toBe(0);
    const { file: _file, params: _params, ...cli } = JSON.parse(out) as Record<string, unknown>;
    const { figures } = await client.explore(key, { method: 'rules', params });
    expect(figures).toEqual(cli);
    // The terminal says where file order broke a tie, as the view does.
    let text = '';
    await runCli(['rules', file, '--m', '2', '--scorer', 'file'], { stdout: (t) => (text += t), stderr: () => undefined, isStderrTty: false, cwd: dir });
    expect(text.split('\n').filter((l) => l.includes('tie broken'))).toEqual(['  prof: tie broken by file order in 1 group']);
  });

  it('refuses a parameter a rule does not take, saying which', async () => {
    await expect(client.explore(key, { method: 'rules', params: { gfpo: { k: 3 } } })).rejects.toThrow(/gfpo has no parameter "k"/);
  });
});

describe('the Explorer\'s disagree filter', () => {
  const disagree = (a: string, b: string, given: Record<string, Record<string, number>> = {}) => ({ version: 1, filter: { disagree: { a, b, params: given } }, sort: null });

  it('lists exactly the rollouts one rule keeps and the other drops, and says so in its title', async () => {
    // PROF keeps 1, 4, 7, 8; PRIME keeps 1–4.
    const answer = await client.explore(key, { method: 'query', query: disagree('prof', 'prime'), offset: 0, limit: 50 });
    expect(answer.page.rows.map((r) => r.line)).toEqual([2, 3, 7, 8]);
    expect(answer.title).toBe('prof ≠ prime (kept by one, dropped by the other) · 4');
  });

  it('decides each rule with the parameters given: RoC with groups of 4 agrees with PRIME here, with its default of 16 keeps nothing', async () => {
    const agree = await client.explore(key, { method: 'query', query: disagree('prime', 'roc', { roc: { down_sample_to_n: 4 } }), offset: 0, limit: 50 });
    expect(agree.page.total).toBe(0);
    expect(agree.title).toMatch(/^prime ≠ roc \(down_sample_to_n=4\)/);
    const byDefault = await client.explore(key, { method: 'query', query: disagree('prime', 'roc'), offset: 0, limit: 50 });
    expect(byDefault.page.rows.map((r) => r.line)).toEqual([1, 2, 3, 4]);
  });

  it('refuses an unknown rule or a bad parameter with what was expected', async () => {
    await expect(client.explore(key, { method: 'query', query: disagree('prof', 'nope'), offset: 0, limit: 5 })).rejects.toThrow(/"nope" is not a rule/);
    await expect(client.explore(key, { method: 'query', query: disagree('prof', 'gfpo', { gfpo: { num_remains_in_group: -1 } }), offset: 0, limit: 5 })).rejects.toThrow(/integer ≥ 0/);
  });
});
