/**
 * `eval` and `--calibrate` on real PRM output: Skywork-o1-Open-PRM-Qwen-2.5-7B's step scores for 500
 * PRMBench items (test/fixtures/prm/README.md says where they come from and how good the labels
 * are). Every figure the CLI prints is recomputed here from the file by the ProcessBench rule, and
 * the calibrated threshold is checked against every threshold that changes a prediction.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';

const FILE = join(__dirname, '..', '..', 'fixtures', 'prm', 'prmbench-skywork-prm-7b.json');
const items = JSON.parse(readFileSync(FILE, 'utf8')) as { label: number; step_scores: number[] }[];
const cacheDir = mkdtempSync(join(tmpdir(), 'prof-lens-real-prm-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  // The stored calibration goes to a folder of the test's own, never the user's cache.
  const code = await runCli([...args, '--cache-dir', cacheDir], { stdout: (t) => (out += t), stderr: () => undefined, isStderrTty: false, cwd: cacheDir, env: {} });
  return { code, out };
}

/** ProcessBench at one threshold: the first step below it is the prediction (-1 when none). */
function processBench(threshold: number): { errorHits: number; correctHits: number; flagged: number; flaggedFlawed: number; f1: number } {
  let errors = 0, errorHits = 0, correct = 0, correctHits = 0, flagged = 0, flaggedFlawed = 0;
  for (const item of items) {
    const predicted = item.step_scores.findIndex((s) => s < threshold);
    if (predicted >= 0) flagged++;
    if (item.label >= 0) {
      errors++;
      if (predicted === item.label) errorHits++;
      if (predicted >= 0) flaggedFlawed++;
    } else {
      correct++;
      if (predicted < 0) correctHits++;
    }
  }
  const a = errorHits / errors;
  const b = correctHits / correct;
  return { errorHits, correctHits, flagged, flaggedFlawed, f1: a + b === 0 ? 0 : (2 * a * b) / (a + b) };
}

interface EvalJson {
  items: number;
  report: { threshold: number; subsets: { errorItems: number; errorHits: number; correctItems: number; correctHits: number; f1: number }[] };
  flags: { flagged: number; flaggedFlawed: number; precision: number; recall: number };
  calibration?: { calibration: { threshold: number; f1: number; heldOut: { calibratedOn: number; measuredOn: number; f1: number } | null } };
}

describe('a real PRM\'s step scores on 500 labelled PRMBench solutions', () => {
  it('eval reports the ProcessBench figures and the low-step flag\'s precision and recall at the default threshold', async () => {
    const { code, out } = await cli(['eval', FILE, '--scorer', 'file', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(out) as EvalJson;
    const expected = processBench(0.5);
    expect(result.items).toBe(500);
    expect(result.report.subsets[0]).toMatchObject({ errorItems: 133, correctItems: 367, errorHits: expected.errorHits, correctHits: expected.correctHits });
    expect(result.report.subsets[0]?.f1).toBeCloseTo(expected.f1, 12);
    expect(result.flags).toMatchObject({ flagged: expected.flagged, flaggedFlawed: expected.flaggedFlawed });
    expect(result.flags.precision).toBeCloseTo(expected.flaggedFlawed / expected.flagged, 12);
    expect(result.flags.recall).toBeCloseTo(expected.flaggedFlawed / 133, 12);
  });

  it('--calibrate stores the threshold no other threshold beats, with a held-out figure, and eval then uses it', async () => {
    const { code, out } = await cli(['eval', FILE, '--scorer', 'file', '--calibrate', '--json']);
    expect(code).toBe(0);
    const stored = (JSON.parse(out) as EvalJson).calibration?.calibration;
    expect(stored).toBeDefined();
    // Predictions change only where a threshold passes a score: trying just above each one covers them all.
    const scores = [...new Set(items.flatMap((i) => i.step_scores))];
    const best = Math.max(processBench(0).f1, ...scores.map((s) => processBench(s + 1e-9).f1));
    expect(stored?.f1).toBeCloseTo(best, 12);
    expect(processBench(stored?.threshold ?? NaN).f1).toBeCloseTo(best, 12);
    expect(stored?.threshold).toBeLessThan(0.5);
    expect(stored?.heldOut).toMatchObject({ calibratedOn: expect.any(Number), measuredOn: expect.any(Number) });
    expect((stored?.heldOut?.calibratedOn ?? 0) + (stored?.heldOut?.measuredOn ?? 0)).toBe(500);

    const after = await cli(['eval', FILE, '--scorer', 'file']);
    expect(after.out).toContain(`threshold ${stored?.threshold}, calibrated on 500 labelled solutions (prmbench-skywork-prm-7b.json)`);
    const again = JSON.parse((await cli(['eval', FILE, '--scorer', 'file', '--json'])).out) as EvalJson;
    expect(again.report.threshold).toBe(stored?.threshold);
    expect(again.report.subsets[0]?.f1).toBeCloseTo(best, 12);
  });
});
