/**
 * `prof-lens compare` on two written dumps whose per-prompt changes are known
 * (test/fixtures/compare: file step scores, groups of at most four, so every rollout is kept):
 * a prompt whose wording differs only in whitespace aligns; a question asked with two golds on
 * side a is told apart by gold; a side without a gold still aligns; prompts on one side only are
 * counted. The same comparison of two steps of a run folder and of one file of several steps.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';

const ROOT = join(__dirname, '../../..');
const A = join(ROOT, 'test/fixtures/compare/a.jsonl');
const B = join(ROOT, 'test/fixtures/compare/b.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-compare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: dir });
  return { code, out, err };
}

const KEYS = ['prompt', 'groupA', 'groupB', 'nA', 'nB', 'passRateA', 'passRateB', 'delta', 'consistencyA', 'consistencyB', 'suspectedFalsePositivesA', 'suspectedFalsePositivesB'];

/** What the two fixtures must give, worked out by hand: [prompt, groupA, groupB, nA, nB, passA, passB, delta, consistencyA, consistencyB, fpA, fpB]. */
const EXPECTED = [
  ['Say yes.', 'a8', 'b1', 1, 1, 1, 0, -1, 0.8, -0.7, 0, 0],
  ['What is 2 + 2?', 'a1', 'b7', 4, 4, 0.75, 0.25, -0.5, 0.8, 0.6, 1, 1],
  ['What is 8 / 2?', 'a7', 'b2', 2, 2, 1, 0.5, -0.5, 0.8, 0.8, 0, 0],
  ['Name  the\ncapital of France.', 'a3', 'b5', 2, 2, 0.5, 0.5, 0, 0.8, 0.8, 0, 0],
  ['Compute x.', 'a5', 'b4', 2, 2, 1, 1, 0, 0.8, 0.8, 0, 0],
  ['What is 3 + 3?', 'a2', 'b6', 4, 4, 0.5, 1, 0.5, 0.8, 0.8, 0, 0],
];

function rounded(value: unknown): unknown {
  return typeof value === 'number' ? Math.round(value * 1e9) / 1e9 : value;
}

describe('prof-lens compare', () => {
  it('--json: exactly the contract shape, largest regression first, ties in side a order', async () => {
    const run = await cli(['compare', A, B, '--json']);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.out) as { a: string; b: string; prompts: Record<string, unknown>[]; onlyA: number; onlyB: number; totals: Record<string, unknown> };
    expect(Object.keys(json)).toEqual(['a', 'b', 'prompts', 'onlyA', 'onlyB', 'totals']);
    expect([json.a, json.b]).toEqual([A, B]);
    for (const p of json.prompts) expect(Object.keys(p)).toEqual(KEYS);
    expect(json.prompts.map((p) => KEYS.map((k) => rounded(p[k])))).toEqual(EXPECTED);
    expect([json.onlyA, json.onlyB]).toEqual([2, 1]);
    expect(json.totals).toMatchObject({ promptsA: 8, promptsB: 7, aligned: 6, rolloutsA: 19, rolloutsB: 17, regressed: 3, improved: 1, unchanged: 2, unreadableLinesA: 0, unreadableLinesB: 0 });
    expect(rounded(json.totals['passRateA'])).toBe(rounded(11 / 15));
    expect(rounded(json.totals['passRateB'])).toBe(rounded(9 / 15));
  });

  it('the terminal table lists falls (largest first) and rises, with the totals', async () => {
    const run = await cli(['compare', A, B]);
    expect(run.code).toBe(0);
    expect(run.out).toContain('prompts: 6 on both sides · 2 only in a · 1 only in b');
    expect(run.out).toContain('pass rate on the prompts both have: 73.3% → 60.0% (−13.3 points)');
    const falls = run.out.slice(run.out.indexOf('largest falls'), run.out.indexOf('largest rises'));
    expect(falls.split('\n').filter((l) => /^\s+−/.test(l)).map((l) => l.trim().split(/\s{2,}/).pop())).toEqual(['Say yes.', 'What is 2 + 2?', 'What is 8 / 2?']);
    expect(run.out.slice(run.out.indexOf('largest rises'))).toMatch(/\+50\.0\s+50\.0% → 100\.0%\s+4\/4.*What is 3 \+ 3\?/);
  });

  it('names a curation rule other than PROF under the two sides, as report does; PROF adds no line', async () => {
    const gfpo = await cli(['compare', A, B, '--rule', 'gfpo', '--rule-param', 'num_remains_in_group=4']);
    expect(gfpo.code).toBe(0);
    const head = gfpo.out.split('\n').slice(0, 4);
    expect(head[1]).toMatch(/^ +b = /);
    expect(head[2]).toBe('rule: gfpo (GFPO) num_remains_in_group=4 group_filter_func=length');
    expect((await cli(['compare', A, B])).out).not.toMatch(/^rule:/m);
  });

  it('two steps of a run folder, and two steps of one file, compare as the two files do', async () => {
    const run = join(dir, 'run');
    mkdirSync(run, { recursive: true });
    writeFileSync(join(run, '10.jsonl'), readFileSync(A));
    writeFileSync(join(run, '20.jsonl'), readFileSync(B));
    const withStep = (path: string, step: number): string => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.stringify({ step, ...(JSON.parse(l) as object) })).join('\n');
    writeFileSync(join(dir, 'all.jsonl'), `${withStep(A, 10)}\n${withStep(B, 20)}\n`);
    const files = JSON.parse((await cli(['compare', A, B, '--json'])).out) as { prompts: unknown[]; totals: unknown };
    for (const [a, b] of [['run@10', 'run@20'], ['all.jsonl@10', 'all.jsonl@20']]) {
      const steps = await cli(['compare', a!, b!, '--json']);
      expect(steps.code).toBe(0);
      const json = JSON.parse(steps.out) as { a: string; prompts: unknown[]; totals: unknown };
      expect(json.a).toBe(a);
      expect(json.prompts).toEqual(files.prompts);
      expect(json.totals).toEqual(files.totals);
    }
  });

  it('usage errors name what a side must be (exit 2)', async () => {
    const run = join(dir, 'run2');
    mkdirSync(run, { recursive: true });
    writeFileSync(join(run, '10.jsonl'), readFileSync(A));
    writeFileSync(join(run, '30.jsonl'), readFileSync(B));
    const folder = await cli(['compare', 'run2', A]);
    expect(folder.code).toBe(2);
    expect(folder.err).toContain('run2 is a run folder: name one of its steps, e.g. run2@40 (steps in its file names: 10, 30)');
    expect((await cli(['compare', 'run2@20', A])).err).toContain('run2 has no file for step 20 (steps in its file names: 10, 30)');
    expect((await cli(['compare', `${A}@7`, B])).err).toMatch(/no rollout of step 7 \(its records name no step\)/);
    expect((await cli(['compare', 'missing.jsonl', B])).err).toContain('missing.jsonl: no such file or folder');
    expect((await cli(['compare', A])).code).toBe(2);
  });

  it('unreadable lines are reported with their file and line, the rest compared (exit 1)', async () => {
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, `${readFileSync(B, 'utf8')}{"uid": "x", "prompt": \n`);
    const run = await cli(['compare', A, broken, '--json']);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${broken}:18: error:`);
    expect((JSON.parse(run.out) as { totals: { unreadableLinesB: number } }).totals.unreadableLinesB).toBe(1);
  });

  it('hostile prompts stay text: no terminal escapes, JSON escapes intact', async () => {
    const hostile = join(dir, 'hostile.jsonl');
    const prompt = 'Evil \u001b[31mred\u001b[0m <script>x</script>';
    writeFileSync(hostile, `${JSON.stringify({ prompt, response: 'a\n\nb', answer: '1', score: 1, step_scores: [0.9, 0.9] })}\n`);
    const table = await cli(['compare', hostile, hostile]);
    expect(table.out).not.toContain('\u001b');
    const json = await cli(['compare', hostile, hostile, '--json']);
    expect((JSON.parse(json.out) as { prompts: { prompt: string }[] }).prompts[0]!.prompt).toBe(prompt);
  });
});
