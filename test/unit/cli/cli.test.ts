import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';

const ROOT = join(__dirname, '../../..');
const EXAMPLE = join(ROOT, 'examples/gsm-rollouts.jsonl');
const DATA = join(ROOT, 'test/fixtures/data');
/** ToRA-Code-34B on the GSM8K test set, ToRA's own evaluation output (test/fixtures/README.md). */
const TORA_GSM8K = join(ROOT, 'test/fixtures/harness/tora-code-34b-gsm8k.slim.jsonl');

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: ROOT });
  return { code, out, err };
}

const tmp = (): string => mkdtempSync(join(tmpdir(), 'prof-lens-cli-'));

describe('prof-lens report', () => {
  it('prints a readable report of the bundled example with the embedded checker', async () => {
    const { code, out } = await cli(['report', EXAMPLE]);
    expect(code).toBe(0);
    expect(out).toMatch(/PROF report: .*gsm-rollouts\.jsonl/);
    expect(out).toMatch(/rollouts 72 in 9 groups · kept 36/);
    expect(out).toMatch(/scored by: checker 72/);
    expect(out).toMatch(/suspected false positives: \d+/);
  });

  it('a real harness dump reproduces the accuracy its authors published: ToRA-Code-34B, GSM8K test, 80.7', async () => {
    const json = await cli(['report', TORA_GSM8K, '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out);
    expect(report.rollouts).toBe(1319);
    // ToRA's .metrics file beside the dump: "Num samples: 1319 … Mean score: [80.7]".
    expect(Math.abs(report.accuracy * 100 - 80.7)).toBeLessThanOrEqual(0.1);
    expect(report.outcomes).toEqual({ correct: 1064, incorrect: 255, unknown: 0, 'non-binary': 0 });
    // No prompt was kept in the fixture, so each line (one problem) is its own group.
    expect(report.groups).toBe(1319);
    const text = await cli(['report', TORA_GSM8K]);
    expect(text.out).toMatch(/outcomes: correct 1064 \(80\.7% of rollouts\)/);
    // The unreduced first lines (question, program, output) grade the same, one group per question.
    const first = JSON.parse((await cli(['report', TORA_GSM8K.replace('slim', 'first2'), '--json'])).out);
    expect([first.rollouts, first.groups, first.outcomes.correct]).toEqual([2, 2, 2]);
  });

  it('--json has the fields scripts rely on, and the counts add up', async () => {
    const { code, out } = await cli(['report', EXAMPLE, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    for (const key of ['rollouts', 'groups', 'kept', 'dropped', 'unreadableLines', 'suspectedFalsePositives', 'byReason', 'scorer']) expect(report).toHaveProperty(key);
    expect(report.kept + report.dropped).toBe(report.rollouts);
    const reasons = Object.values(report.byReason as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(reasons).toBe(report.rollouts);
    // Every group in the example has 8 rollouts, so m=4 keeps exactly half.
    expect(report.kept).toBe(36);
  });

  it('the deliberately flawed correct solutions are flagged as suspected false positives', async () => {
    const dir = tmp();
    const decisions = join(dir, 'd.jsonl');
    await cli(['filter', EXAMPLE, '-o', join(dir, 'k.jsonl'), '--decisions', decisions]);
    const lines = readFileSync(decisions, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // Solution 3 of each group reaches the right answer through two false calculations.
    const flawed = lines.filter((_, i) => i % 8 === 2);
    expect(flawed.every((d) => d.correct === true && d.suspectedFalsePositive && d.firstLowStep === 0)).toBe(true);
    expect(flawed.every((d) => !d.kept)).toBe(true);
  });

  it('a file with unreadable lines exits 1, names the lines on stderr, and still reports the rest', async () => {
    const dir = tmp();
    const path = join(dir, 'broken.jsonl');
    const good = readFileSync(EXAMPLE, 'utf8').split('\n').slice(0, 8);
    writeFileSync(path, [...good.slice(0, 4), '{"prompt": oops', ...good.slice(4), '{"uid":"x","prompt":"p","resp'].join('\n'));
    const { code, out, err } = await cli(['report', path, '--json']);
    expect(code).toBe(1);
    expect(JSON.parse(out)).toMatchObject({ rollouts: 8, unreadableLines: 2 });
    expect(err).toMatch(/broken\.jsonl:5: error: line 5: expected one JSON object per line/);
    expect(err).toMatch(/broken\.jsonl:10: error: line 10: the last line is not complete JSON/);
  });

  it('usage errors exit 2 with a message naming the option', async () => {
    expect(await cli(['report'])).toMatchObject({ code: 2 });
    const bad = await cli(['report', EXAMPLE, '--m', 'four']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--m expects a number, got "four"/);
    expect((await cli(['report', EXAMPLE, '--variant', 'neg'])).err).toMatch(/variant must be both or pos/);
    expect((await cli(['report', join(ROOT, 'no-such-file.jsonl')])).code).toBe(2);
    expect((await cli(['frobnicate'])).code).toBe(2);
  });

  it('--help explains every command', async () => {
    const { code, out } = await cli(['--help']);
    expect(code).toBe(0);
    for (const c of ['report', 'filter', 'score', 'grade', '--m N', '--remove N', '--penalty', 'Exit codes']) expect(out).toContain(c);
  });

  it('<command> --help shows that command\'s usage, not every command\'s', async () => {
    const audit = await cli(['audit', '--help']);
    expect(audit.code).toBe(0);
    expect(audit.out).toContain('prof-lens audit <dump> (--critic <url> | --labels FILE)');
    expect(audit.out).toContain('--m N');
    expect(audit.out).not.toContain('prof-lens trend <run>');
    const grade = await cli(['grade', '-h']);
    expect(grade.out).toContain('prof-lens grade <cases.jsonl>');
    expect(grade.out).not.toContain('--m N');
    expect(grade.out).toContain('Exit codes');
    expect((await cli(['filter', '--help'])).out).toContain('prof-lens filter examples/gsm-rollouts.jsonl -o kept.jsonl');
  });

  it('reads the real GSM8K solutions file with file outcomes', async () => {
    const { code, out } = await cli(['report', join(DATA, 'gsm8k_openai_example_model_solutions_first120.jsonl'), '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report).toMatchObject({ rollouts: 480, groups: 120 });
    // n=4 per group and m=4: every ranked rollout is kept.
    expect(report.byReason['kept-small-group']).toBe(480);
  });
});

describe('prof-lens filter', () => {
  it('writes the kept rollouts as the original bytes of their lines, never touching the input', async () => {
    const dir = tmp();
    const input = join(dir, 'in.jsonl');
    const original = readFileSync(EXAMPLE, 'utf8').replace(/\n/g, '\r\n');
    writeFileSync(input, original);
    const kept = join(dir, 'kept.jsonl');
    const { code } = await cli(['filter', input, '-o', kept, '--m', '4']);
    expect(code).toBe(0);
    expect(readFileSync(input, 'utf8')).toBe(original);
    const keptLines = readFileSync(kept, 'utf8').split('\r\n').filter(Boolean);
    expect(keptLines.length).toBe(36);
    const inputLines = new Set(original.split('\r\n'));
    expect(keptLines.every((l) => inputLines.has(l))).toBe(true);
  });

  it('a grouped line keeps only its kept responses and the matching array entries', async () => {
    const dir = tmp();
    const input = join(dir, 'grouped.jsonl');
    const line = '{"problem": "P", "responses": ["a\\n\\nb", "c\\n\\nd", "e\\n\\nf"], "score": [1, 0, 1], "step_scores": [[0.9, 0.8], [0.1, 0.2], [0.2, 0.3]], "answer": "1"}';
    writeFileSync(input, line + '\n');
    const { code } = await cli(['filter', input, '-o', join(dir, 'k.jsonl'), '--m', '2']);
    expect(code).toBe(0);
    const out = readFileSync(join(dir, 'k.jsonl'), 'utf8');
    expect(out).toBe('{"problem": "P", "responses": ["a\\n\\nb", "c\\n\\nd"], "score": [1, 0], "step_scores": [[0.9, 0.8], [0.1, 0.2]], "answer": "1"}\n');
  });

  it('decision lines carry every field of the contract, one per rollout in input order', async () => {
    const dir = tmp();
    await cli(['filter', EXAMPLE, '-o', join(dir, 'k.jsonl'), '--decisions', join(dir, 'd.jsonl')]);
    const lines = readFileSync(join(dir, 'd.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBe(72);
    expect(lines.map((l) => l.line)).toEqual(Array.from({ length: 72 }, (_, i) => i + 1));
    for (const key of ['line', 'index', 'group', 'correct', 'steps', 'stepScores', 'score', 'consistency', 'penalised', 'kept', 'reason', 'firstLowStep', 'suspectedFalsePositive', 'falsePositiveRules']) expect(lines[0]).toHaveProperty(key);
    expect(lines[0].group).toBe('gsm-01');
    // The long solution (33 steps) of every group is penalised and dropped.
    expect(lines.filter((_, i) => i % 8 === 7).every((l) => l.penalised && !l.kept && l.steps >= 30)).toBe(true);
  });

  it('refuses to overwrite its input', async () => {
    const { code, err } = await cli(['filter', EXAMPLE, '-o', EXAMPLE]);
    expect(code).toBe(2);
    expect(err).toMatch(/is the same file as the input .* the input is never overwritten/);
  });
});

describe('prof-lens grade', () => {
  it('writes one {"equal": bool} line per case', async () => {
    const dir = tmp();
    const cases = join(dir, 'cases.jsonl');
    writeFileSync(cases, ['{"pred": "\\\\frac{1}{2}", "gold": "0.5"}', '{"pred": "3", "gold": "4"}', '{"pred": "7,425,000", "gold": "7425000"}'].join('\n') + '\n');
    const { code, out } = await cli(['grade', cases]);
    expect(code).toBe(0);
    expect(out.trim().split('\n').map((l) => JSON.parse(l).equal)).toEqual([true, false, true]);
  });
});

describe('the installed binary', () => {
  beforeAll(() => {
    if (!existsSync(join(ROOT, 'dist/cli.js'))) spawnSync('node', ['esbuild.mjs'], { cwd: ROOT });
  });

  it('bin/prof-lens.js runs the built CLI and sets the exit code', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'bin/prof-lens.js'), 'report', EXAMPLE, '--json'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).rollouts).toBe(72);
    const usage = spawnSync(process.execPath, [join(ROOT, 'bin/prof-lens.js'), 'report'], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
  });
});

describe('prof-lens eval', () => {
  it('reports first-error accuracy per labelled file with the embedded checker', async () => {
    const files = [join(DATA, 'openr_samples_math-shepherd.jsonl'), join(ROOT, 'test/fixtures/processbench-gsm8k-sample.json')];
    const { code, out } = await cli(['eval', ...files, '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(out);
    expect(result.scorer).toBe('checker');
    const shepherd = result.report.subsets.find((s: { subset: string }) => s.subset === 'openr_samples_math-shepherd');
    // Seven flawed Math-Shepherd solutions; the checker finds the arithmetic ones exactly.
    expect(shepherd).toMatchObject({ errorItems: 7, errorHits: 3, correctItems: 0 });
    const text = await cli(['eval', ...files, '--sweep']);
    expect(text.out).toMatch(/best threshold by average F1/);
  });
});
