/**
 * Labels and calibration files that lie. Before: a labels file (or the automatic sidecar) that is
 * a FIFO hung the command (Ctrl-C ignored), one linked to `/dev/zero` read 617 MB and threw; a
 * label value nested deep overflowed the stack while being quoted; a calibration entry with
 * threshold 1e300 and F1 −7 was used as it was (every correct answer became a suspected false
 * positive), and 300,000 bad entries printed 300,000 warnings on every command.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { readLabelsFile } from '../../../src/scoring/labels/labelFiles';

let dir: string;
const at = (name: string): string => join(dir, name);

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string; seconds: number }> {
  let out = '';
  let err = '';
  const started = performance.now();
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: dir, env: {} });
  return { code, out, err, seconds: (performance.now() - started) / 1000 };
}

const META = { scorer: 'onnx', profile: 'qwen-prm', identity: 'onnx:0123456789abcdef0123456789abcdef' };
/** Four correct rollouts whose weakest steps are .6 .7 .8 .9 and two incorrect ones. */
const ROWS = [0.6, 0.7, 0.8, 0.9].map((s, i) => ({ prompt: 'P', response: `A${i}.\n\nB${i}.`, correct: true, step_scores: [0.95, s], step_scores_meta: META }))
  .concat([0, 1].map((i) => ({ prompt: 'P', response: `C${i}.\n\nD${i}.`, correct: false, step_scores: [0.2, 0.1], step_scores_meta: META })));

const calibration = (threshold: number, f1: number) => ({
  identity: META.identity, scorer: 'onnx qwen-prm', threshold, f1, heldOut: null,
  set: { name: 'x', size: 10, errorItems: 5, correctItems: 5 }, at: '2026-01-01',
});

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'prof-lens-lying-labels-'));
  writeFileSync(at('dump.jsonl'), ROWS.map((r) => JSON.stringify(r)).join('\n') + '\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('labels files', () => {
  it('a FIFO or a link to /dev/zero is refused at once, named, never read', async () => {
    execFileSync('mkfifo', [at('fifo.json')]);
    symlinkSync('/dev/zero', at('zero.json'));
    const fifo = await cli(['eval', at('dump.jsonl'), '--labels', at('fifo.json'), '--no-cache']);
    expect(fifo.seconds).toBeLessThan(10);
    expect(fifo.code).toBe(2);
    expect(fifo.err).toContain(`${at('fifo.json')} is a named pipe (FIFO), not a regular file: a labels file is only read from a regular file`);
    const zero = await cli(['eval', at('dump.jsonl'), '--labels', at('zero.json'), '--no-cache']);
    expect(zero.code).toBe(2);
    expect(zero.err).toContain(`${at('zero.json')} is a character device, not a regular file`);
    // The editor reads the automatic sidecar through the same function: one problem, no labels, no wait.
    symlinkSync('fifo.json', at('dump.jsonl.prof-labels.json'));
    const sidecar = await readLabelsFile(at('dump.jsonl.prof-labels.json'));
    expect(sidecar.store.labels.size).toBe(0);
    expect(sidecar.problems).toEqual([expect.stringContaining('is a named pipe (FIFO), not a regular file')]);
    rmSync(at('dump.jsonl.prof-labels.json'));
  });

  it('a label nested 100,000 deep is named with a short quote; the other items are read', async () => {
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    const good = JSON.stringify({ problem: 'P', steps: ['A0.', 'B0.'], label: 1 });
    writeFileSync(at('deep.jsonl'), `${good}\n{"problem":"P","steps":["A1.","B1."],"label":${deep}}\n`);
    const read = await readLabelsFile(at('deep.jsonl'));
    expect(read.store.labels.size).toBe(1);
    expect(read.problems).toHaveLength(1);
    expect(read.problems[0]).toMatch(/line 2: "label" must be −1 \(no error\) or the index of a step \(below 2\), got \[\[\[+…; left out$/);
    expect(read.problems[0]!.length).toBeLessThan(300);
    const run = await cli(['eval', at('dump.jsonl'), '--labels', at('deep.jsonl'), '--json', '--no-cache']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).labels).toMatchObject({ count: 1, matched: 1 });
  });
});

describe('the calibrations file', () => {
  it('an entry with threshold 1e300 and F1 −7 is ignored and named; the default threshold is used', async () => {
    const cache = at('cache-range');
    mkdirSync(cache);
    writeFileSync(join(cache, 'calibrations.v1.json'), JSON.stringify({ format: 'prof-lens-calibrations', version: 1, calibrations: { [META.identity]: calibration(1e300, -7) } }));
    const run = await cli(['report', at('dump.jsonl'), '--cache-dir', cache, '--json']);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.out);
    expect(json.threshold).toMatchObject({ value: 0.5, source: 'uncalibrated' });
    // At 1e300 every correct rollout was a suspected false positive (its weakest step "low"); now as with no calibration.
    const plain = JSON.parse((await cli(['report', at('dump.jsonl'), '--no-cache', '--json'])).out);
    expect(json.suspectedFalsePositives).toBe(plain.suspectedFalsePositives);
    expect(json.suspectedFalsePositives).toBeLessThan(4);
    expect(run.err.match(/ignored/g)).toHaveLength(1);
    expect(run.err).toContain(`the entry for "${META.identity}" has threshold 1e+300, not a number in [0, 1]; ignored`);
    writeFileSync(join(cache, 'calibrations.v1.json'), JSON.stringify({ format: 'prof-lens-calibrations', version: 1, calibrations: { [META.identity]: { ...calibration(0.7, 0.8), set: { name: 'x', size: 10, errorItems: -1, correctItems: 5 } } } }));
    expect((await cli(['report', at('dump.jsonl'), '--cache-dir', cache])).err).toMatch(/has a labelled set whose counts are not whole numbers ≥ 0; ignored/);
  });

  it('300,000 bad entries make six warning lines, not 300,000; a good entry among them is used', async () => {
    const cache = at('cache-many');
    mkdirSync(cache);
    const entries: Record<string, unknown> = { [META.identity]: calibration(0.75, 0.8) };
    for (let i = 0; i < 300_000; i++) entries[`onnx:${i}`] = { threshold: 2 };
    writeFileSync(join(cache, 'calibrations.v1.json'), JSON.stringify({ format: 'prof-lens-calibrations', version: 1, calibrations: entries }));
    const run = await cli(['report', at('dump.jsonl'), '--cache-dir', cache, '--json']);
    expect(run.seconds).toBeLessThan(20);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).threshold).toMatchObject({ value: 0.75, source: 'calibrated' });
    const warnings = run.err.split('\n').filter((l) => l.includes('calibrations.v1.json'));
    expect(warnings).toHaveLength(6);
    expect(warnings[5]).toContain('299,995 more entries ignored (300,000 in all; calibrate again to rewrite the file)');
  });

  it('a calibrations file that is a FIFO is named and skipped; the command goes on', async () => {
    const cache = at('cache-fifo');
    mkdirSync(cache);
    execFileSync('mkfifo', [join(cache, 'calibrations.v1.json')]);
    const run = await cli(['report', at('dump.jsonl'), '--cache-dir', cache, '--json']);
    expect(run.seconds).toBeLessThan(10);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).threshold).toMatchObject({ value: 0.5 });
    expect(run.err).toContain('calibrations.v1.json is a named pipe (FIFO), not a regular file');
  });
});
