/**
 * One line of hostile model output must not stall a command: the CAS bombs and the inputs that
 * made regexes quadratic finish in seconds through `report` and `grade`, the rest of the file is
 * still analysed, and what was not decided is named on stderr. Before the budget, the power tower
 * kept `report` busy for a minute (800 MB) and `grade` never finished; `\pi^{9^{9^{9}}}` in a step
 * took 19 s.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string; seconds: number }> {
  let out = '';
  let err = '';
  const started = performance.now();
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: process.cwd() });
  return { code, out, err, seconds: (performance.now() - started) / 1000 };
}

const dir = mkdtempSync(join(tmpdir(), 'prof-lens-hostile-'));
function file(name: string, records: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

/** A fine rollout beside each hostile one: it must still be graded and checked. */
const FINE = { prompt: 'What is 6 * 7?', response: 'We get 6 \\times 7 = 42.\n\nThe answer is \\boxed{42}', gold: '42' };

describe('hostile rollouts through prof-lens report', () => {
  it.each([
    ['a power tower as the boxed answer', 'Step 1.\n\nSo \\boxed{9^{9^{9^{9}}}}', /the answer "9\^\{9\^\{9\^\{9\}\}\}" was not graded: .*power tower/],
    ['a power tower claimed in a step', 'We get $\\pi^{9^{9^{9}}} = 3$.\n\nThe answer is \\boxed{3}', /step 1: "\\pi\^\{9\^\{9\^\{9\}\}\} = 3" was not checked: .*power tower/],
    ['a huge factorial claimed in a step', 'We get $100000! = 5$.\n\nThe answer is \\boxed{3}', /step 1: "100000! = 5" was not checked: .*factorial of 100000/],
  ])('%s: finishes in seconds, names it, and analyses the rest', async (_, response, message) => {
    const path = file('bomb.jsonl', [{ prompt: 'p', response, gold: '3' }, FINE]);
    const { code, out, err, seconds } = await cli(['report', path, '--json']);
    expect(code).toBe(0);
    expect(seconds).toBeLessThan(15);
    expect(err).toMatch(message);
    const report = JSON.parse(out);
    expect(report.rollouts).toBe(2);
    expect(report.outcomes.correct).toBeGreaterThanOrEqual(1);
  });

  it('a response of 300k spaces after "the answer is" and 100k newlines with step-marker splitting', async () => {
    const path = file('spaces.jsonl', [
      { prompt: 'p', response: `So the answer is 5${' '.repeat(300_000)}`, gold: '5' },
      { prompt: 'p', response: `a${'\n'.repeat(100_000)}b`, gold: '5' },
    ]);
    const { code, out, seconds } = await cli(['report', path, '--json', '--split', 'step-markers']);
    expect(code).toBe(0);
    expect(seconds).toBeLessThan(10);
    expect(JSON.parse(out).outcomes.correct).toBe(1);
  });

  it('a catastrophic split pattern runs in linear time; one RE2 cannot express is refused with a message', async () => {
    const path = file('evil.jsonl', [{ prompt: 'p', response: `${'a'.repeat(5000)}b\n\nThe answer is 5`, gold: '5' }]);
    const linear = await cli(['report', path, '--json', '--split', 'regex:(a+)+$']);
    expect(linear.code).toBe(0);
    expect(linear.seconds).toBeLessThan(10);
    const refused = await cli(['report', path, '--split', 'regex:(?<=a)b']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/the split pattern ".*" cannot be used: .*RE2/);
  });
});

describe('hostile answers through prof-lens grade', () => {
  it('power towers and huge factorials are not decided, with the reason, and the other lines are graded', async () => {
    const path = file('cases.jsonl', [
      { pred: '\\boxed{9^{9^{9^{9}}}}', gold: '3' },
      { pred: '\\boxed{100000!}', gold: '5' },
      { pred: '\\frac{6}{8}', gold: '0.75' },
      { pred: `\\boxed{${'('.repeat(50_000)}1${')'.repeat(50_000)}}`, gold: '1' },
    ]);
    const { code, out, err, seconds } = await cli(['grade', path]);
    expect(code).toBe(0);
    expect(seconds).toBeLessThan(10);
    expect(out.trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { equal: false, undecided: true, reason: expect.stringMatching(/power tower/) },
      { equal: false, undecided: true, reason: expect.stringMatching(/factorial of 100000/) },
      { equal: true },
      { equal: false, undecided: true, reason: expect.stringMatching(/the answer is 100,001 characters long/) },
    ]);
    expect(err).toMatch(/cases\.jsonl:1: not decided: .*power tower/);
    expect(err).toMatch(/cases\.jsonl:4: not decided: the answer is 100,001 characters long/);
  });
});
