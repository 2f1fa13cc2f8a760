import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import type { DetectorResult, HealthReport } from '../../../src/core/health/healthTypes';
import { generatedRun, ONSET, writeRun } from '../core/health/generatedRun';

const ROOT = join(__dirname, '../../..');
const VERL = join(ROOT, 'test/fixtures/real/verl_gsm8k_multiturn_tool_step2.jsonl');

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: ROOT });
  return { code, out, err };
}

async function json(path: string): Promise<HealthReport> {
  const { code, out } = await cli(['health', path, '--json']);
  expect(code).toBe(0);
  return (JSON.parse(out) as { reports: HealthReport[] }).reports[0]!;
}

const byId = (r: HealthReport, id: string): DetectorResult => r.detectors.find((d) => d.id === id)!;

/** Independently of the detector: outputs with a tool reply holding `reward=` before their last `####` or `\boxed`. */
function rolloutsShownTheirReward(): Set<number> {
  const lines = readFileSync(VERL, 'utf8').split('\n');
  const shown = new Set<number>();
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const output = (JSON.parse(line) as { output: string }).output;
    const last = Math.max(output.lastIndexOf('####'), output.lastIndexOf('\\boxed'));
    for (const m of output.matchAll(/<tool_response>([\s\S]*?)<\/tool_response>/g)) if (m.index < last && m[1]!.includes('reward=')) shown.add(i + 1);
  });
  return shown;
}

describe('prof-lens health on the real verl multi-turn dump', () => {
  it('counts the rollouts shown their own reward by a tool reply before answering, and names the replies', async () => {
    const report = await json(VERL);
    expect(report.kind).toBe('file');
    expect(report.rollouts).toBe(1024);
    const visible = byId(report, 'reward-visible');
    const expected = rolloutsShownTheirReward();
    expect(visible.status).toBe('fired');
    expect(visible.count).toEqual({ hits: expected.size, of: 1024 });
    expect(expected.size).toBeGreaterThan(800);
    const lines = readFileSync(VERL, 'utf8').split('\n');
    for (const e of visible.examples) {
      expect(expected.has(e.line)).toBe(true);
      const output = (JSON.parse(lines[e.line - 1]!) as { output: string }).output;
      expect(e.span.text).toMatch(/reward=/);
      expect(output.slice(e.span.start, e.span.end).trim()).toBe(e.span.text);
    }
  });

  it('says what one file cannot tell: the series detectors need a run, token signals are not in this dump', async () => {
    const { out } = await cli(['health', VERL]);
    expect(out).toContain('FIRED · reward visible to the policy');
    expect(out).toMatch(/verl_gsm8k_multiturn_tool_step2\.jsonl:\d+ — \d+ repl/);
    expect(out).toContain('Current parsed answer=');
    expect(out).toContain('needs a run · groups with no GRPO signal');
    expect(out).toContain('not in this dump: no per-token entropy');
    expect(out).toContain('a run (a folder of step files) would add: process-score inflation');
  });
});

describe('prof-lens health on generated runs', () => {
  const tmp = (): string => mkdtempSync(join(tmpdir(), 'prof-lens-health-'));

  it('finds a reward shown to the policy from the step it began, with its rollouts', async () => {
    const dir = writeRun(tmp(), generatedRun({ inject: 'reward-visible', prompts: 4 }));
    const report = await json(dir);
    expect(report.kind).toBe('run');
    const d = byId(report, 'reward-visible');
    expect(d.status).toBe('fired');
    expect(Math.abs(d.onset! - ONSET)).toBeLessThanOrEqual(1);
    expect(d.examples[0]!.file).toMatch(/\d+\.jsonl$/);
    expect(d.examples[0]!.span.text).toContain('reward=');
    expect(d.series[0]!.points.map((p) => p.step)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('finds process-score inflation from the file\'s step scores while accuracy stays flat', async () => {
    const report = await json(writeRun(tmp(), generatedRun({ inject: 'score-inflation', prompts: 4 })));
    const d = byId(report, 'score-inflation');
    expect(d.status).toBe('fired');
    expect(Math.abs(d.onset! - ONSET)).toBeLessThanOrEqual(1);
  });

  it('finds groups losing their GRPO signal, grouped as the trainer groups them (the prompt with its gold)', async () => {
    const report = await json(writeRun(tmp(), generatedRun({ inject: 'no-signal-groups', prompts: 4 })));
    const d = byId(report, 'no-signal-groups');
    expect(d.status).toBe('fired');
    expect(Math.abs(d.onset! - ONSET)).toBeLessThanOrEqual(1);
    expect(d.examples[0]!.note).toMatch(/all 8 rollouts (correct|incorrect)/);
  });

  it('is quiet on a clean run', async () => {
    const { code, out } = await cli(['health', writeRun(tmp(), generatedRun({ prompts: 4 }))]);
    expect(code).toBe(0);
    expect(out).not.toContain('FIRED');
    expect(out).toContain('0 of 9 detectors fired');
  });
});
