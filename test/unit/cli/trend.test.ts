import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { startFakeServer } from '../scoring/scorers/http/fakePoolingServer';

const ROOT = join(__dirname, '../../..');
const SMALL = join(ROOT, 'test/fixtures/run/small');

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: ROOT });
  return { code, out, err };
}

const tmp = (): string => mkdtempSync(join(tmpdir(), 'prof-lens-trend-'));

function runCopy(): string {
  const dir = tmp();
  for (const name of ['10.jsonl', '20.jsonl']) copyFileSync(join(SMALL, name), join(dir, name));
  return dir;
}

describe('prof-lens trend on a small run computed by hand (test/fixtures/run/README.md)', () => {
  it('gives the hand-computed figures for each step, in ascending order', async () => {
    const { code, out } = await cli(['trend', SMALL, '--json', '--no-cache']);
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(Object.keys(json)).toEqual(['runs', 'scorer', 'settings']);
    expect(json.scorer.label).toBe('file, else checker');
    expect(json.settings.m).toBe(4);
    const [step10, step20] = json.runs[0].steps;
    // The contract fields of docs/cli.md §trend --json come first, in its order.
    expect(Object.keys(step10).slice(0, 17)).toEqual(['step', 'rollouts', 'groups', 'correct', 'incorrect', 'accuracy', 'allCorrectGroups', 'allIncorrectGroups', 'kept', 'dropped', 'byReason', 'suspectedFalsePositives', 'penalised', 'stepsMean', 'stepsP90', 'responseCharsMean', 'auroc']);
    expect(step10).toMatchObject({
      step: 10, rollouts: 12, groups: 3, correct: 6, incorrect: 6, accuracy: 0.5, allCorrectGroups: 1, allIncorrectGroups: 1,
      kept: 10, dropped: 2, byReason: { kept: 4, 'kept-small-group': 6, 'dropped-step-penalty': 1, 'dropped-low-consistency': 1 },
      suspectedFalsePositives: 3, falsePositiveShare: 0.5, penalised: 1, stepsMedian: 2, stepsP90: 3, responseCharsMean: 12.5, responseCharsP90: 16,
      auroc: 0.875, notRanked: 0, scorers: { file: 12 }, sources: [{ file: join(SMALL, '10.jsonl'), line: 1 }],
    });
    expect(step10.stepsMean).toBeCloseTo(29 / 12, 12);
    expect(step20).toMatchObject({
      step: 20, rollouts: 6, groups: 2, correct: 2, incorrect: 3, accuracy: 0.4, allCorrectGroups: 0, allIncorrectGroups: 1,
      kept: 5, dropped: 1, byReason: { 'kept-small-group': 5, 'not-ranked-no-outcome': 1 }, suspectedFalsePositives: 1, falsePositiveShare: 0.5,
      penalised: 1, stepsMean: 2.4, stepsMedian: 2, stepsP90: 4, responseCharsMean: 12, responseCharsP90: 22, auroc: 0.75, notRanked: 1, otherOutcomes: 1,
      scorers: { file: 5, checker: 1 },
    });
  });

  it('agrees with prof-lens report on the same file', async () => {
    const trend = JSON.parse((await cli(['trend', join(SMALL, '10.jsonl'), '--json', '--no-cache'])).out).runs[0].steps[0];
    const report = JSON.parse((await cli(['report', join(SMALL, '10.jsonl'), '--json'])).out);
    for (const key of ['rollouts', 'groups', 'kept', 'dropped', 'byReason', 'suspectedFalsePositives', 'penalised', 'auroc'] as const) expect(trend[key], key).toEqual(report[key]);
    expect(trend.falsePositiveShare).toBe(report.falsePositiveRate);
  });

  it('applies PROF options: --m 2 keeps two per group', async () => {
    const json = JSON.parse((await cli(['trend', SMALL, '--json', '--no-cache', '--m', '2'])).out);
    // Groups of 6, 4, 2 (step 10) and 4, 2 with one unranked (step 20).
    expect(json.runs[0].steps.map((s: { kept: number }) => s.kept)).toEqual([6, 3]);
    expect(json.settings.m).toBe(2);
  });

  it('names a curation rule other than PROF first, as report does; PROF adds no line', async () => {
    const prime = await cli(['trend', SMALL, '--no-cache', '--rule', 'prime', '--rule-param', 'accuracy_upper_bound=0.9']);
    expect(prime.code).toBe(0);
    expect(prime.out.split('\n')[0]).toBe('rule: prime (PRIME accuracy band) accuracy_lower_bound=0.2 accuracy_upper_bound=0.9');
    expect((await cli(['trend', SMALL, '--no-cache'])).out).not.toMatch(/^rule:/m);
  });

  it('overlays two runs: one entry each, with their own steps', async () => {
    const other = tmp();
    copyFileSync(join(SMALL, '20.jsonl'), join(other, '20.jsonl'));
    copyFileSync(join(SMALL, '20.jsonl'), join(other, '30.jsonl'));
    const json = JSON.parse((await cli(['trend', SMALL, other, '--json', '--no-cache'])).out);
    expect(json.runs.map((r: { path: string; steps: { step: number }[] }) => [r.path, r.steps.map((s) => s.step)])).toEqual([[SMALL, [10, 20]], [other, [20, 30]]]);
  });

  it('prints one table row per step and run on a terminal, and CSV for spreadsheets', async () => {
    const table = (await cli(['trend', SMALL, '--no-cache'])).out;
    expect(table).toMatch(/run: .*small \(2 files, 2 steps\) · scored by file, else checker/);
    expect(table).toMatch(/^\s+10\s+12\s+3\s+50\.0%\s+1\s+1\s+10\s+2\s+3 \(50\.0%\)\s+1\s+2\.4\/2\.0\/3\s+13\/16\s+0\.875$/m);
    const csv = (await cli(['trend', SMALL, '--csv', '--no-cache'])).out.trim().split('\n');
    expect(csv).toHaveLength(3);
    expect(csv[0]).toMatch(/^run,step,rollouts,groups,correct,incorrect,accuracy,.*,auroc,reason:dropped-low-consistency,reason:dropped-step-penalty,reason:kept,reason:kept-small-group,reason:not-ranked-no-outcome,files$/);
    expect(csv[1]).toMatch(new RegExp(`^${SMALL.replace(/[/.]/g, '\\$&')},10,12,3,6,6,0\\.5,1,1,10,2,0,3,0\\.5,1,`));
  });

  it('reuses cached summaries until a file changes or a setting does', async () => {
    const dir = runCopy();
    const cacheDir = tmp();
    const kept = async (extra: string[] = []): Promise<number[]> => JSON.parse((await cli(['trend', dir, '--json', '--cache-dir', cacheDir, ...extra])).out).runs[0].steps.map((s: { kept: number }) => s.kept);
    expect(await kept()).toEqual([10, 5]);
    // Same size and modification time, different content: the cached summary is used (no re-read).
    const file = join(dir, '20.jsonl');
    const { atime, mtime } = statSync(file);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"score": 1\.0/g, '"score": 0.0'));
    utimesSync(file, atime, mtime);
    expect(await kept()).toEqual([10, 5]);
    // A new modification time: read again (step 20's correct answers are now incorrect).
    const later = new Date(mtime.getTime() + 5000);
    utimesSync(file, later, later);
    const after = JSON.parse((await cli(['trend', dir, '--json', '--cache-dir', cacheDir])).out).runs[0].steps;
    expect(after.map((s: { correct: number }) => s.correct)).toEqual([6, 0]);
    // Another setting: summarised anew, not taken from the m=4 entries.
    expect(await kept(['--m', '2'])).toEqual([6, 3]);
  });

  it('names an empty or unreadable step file on stderr, exits 1, and reports the other steps', async () => {
    const dir = runCopy();
    writeFileSync(join(dir, '30.jsonl'), '');
    // A step file caught while being written: its only line is cut off.
    writeFileSync(join(dir, '40.jsonl'), '{"input": "q", "output": "a", "gts": "1", "sco');
    const { code, out, err } = await cli(['trend', dir, '--json', '--no-cache']);
    expect(code).toBe(1);
    expect(JSON.parse(out).runs[0].steps.map((s: { step: number }) => s.step)).toEqual([10, 20]);
    expect(err).toContain(`${join(dir, '30.jsonl')}: the file is empty`);
    expect(err).toContain(`${join(dir, '40.jsonl')}: no readable record (1 unreadable line)`);
    expect(err).toMatch(/40\.jsonl: line 1: the last line is not complete JSON/);
  });

  it('draws progress (files, megabytes, time left) on a terminal only', async () => {
    let err = '';
    const io = { stdout: () => undefined, stderr: (t: string) => (err += t), isStderrTty: true, cwd: ROOT };
    expect(await runCli(['trend', SMALL, '--no-cache'], io)).toBe(0);
    expect(err).toMatch(/\rtrend: 2\/2 files · 0\/0 MB\s*\n$/);
    expect((await cli(['trend', SMALL, '--no-cache'])).err).toBe('');
  });

  it('with a served PRM, summaries are cached under what the model is: a model swapped behind the same name is asked again', async () => {
    const server = await startFakeServer({ model: { root: '/ckpt/prm-v1', maxModelLen: 4096 } });
    try {
      const dir = runCopy();
      const cacheDir = tmp();
      const pooling = (): number => server.requests.filter((r) => r.path === '/pooling').length;
      const trend = async (): Promise<{ scorers: Record<string, number> }[]> => JSON.parse((await cli(['trend', dir, '--json', '--scorer', 'http', '--url', server.url, '--cache-dir', cacheDir])).out).runs[0].steps;
      const first = await trend();
      expect(Object.keys(first[0]!.scorers)).toEqual([expect.stringMatching(/^http:/)]);
      const afterFirst = pooling();
      // 18 rollouts scored, plus the identity probe.
      expect(afterFirst).toBe(1 + 18);
      expect(await trend()).toEqual(first);
      // Only the probe: no file was summarised again.
      expect(pooling()).toBe(afterFirst + 1);
      // Other weights under the same root: every step now scores above the threshold.
      server.swap({ root: '/ckpt/prm-v1', maxModelLen: 4096, shift: 0.6 });
      const swapped = await trend();
      expect(pooling()).toBe(afterFirst + 2 + 18);
      expect(swapped).not.toEqual(first);
    } finally {
      await server.close();
    }
  });

  it('usage errors exit 2 with a message', async () => {
    expect(await cli(['trend'])).toMatchObject({ code: 2, err: expect.stringMatching(/trend needs a run/) });
    expect(await cli(['trend', join(tmp(), 'nowhere')])).toMatchObject({ code: 2, err: expect.stringMatching(/nowhere: no such folder or file/) });
    expect(await cli(['trend', SMALL, '--json', '--csv'])).toMatchObject({ code: 2, err: expect.stringMatching(/--json or --csv, not both/) });
    expect(await cli(['trend', SMALL, '--jobs', '0'])).toMatchObject({ code: 2, err: expect.stringMatching(/--jobs expects a whole number/) });
  });
});
