/**
 * The embedded checker on a generated ~50 MB verl-style dump without step scores (the path most
 * users take first): `report` against a bare read + JSON.parse of the same file, and the checker
 * itself (every step judged) against its frozen copy from before the single-pass rewrite
 * (test/bench/checkerBefore), both in this run, in alternating slices timed by CPU time. Then
 * start-up: `report` on a one-line file against a bare `node`, paired process runs.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { readFileLines } from '../../src/scoring/analysis/fileLines';
import { analyseFile } from '../../src/cli/analyseFile';
import { judgeStep } from '../../src/scoring/scorers/checker/stepCheck';
import { judgeStep as judgeStepBefore } from './checkerBefore/stepCheck';
import { writeDump } from './core';
import type { BenchResult } from './types';

const DIR = 'test-output/bench';
const io = { stdout: () => undefined, stderr: () => undefined, isStderrTty: false, cwd: process.cwd() };
/** Steps judged by the frozen copy (it reads 2–4 MB/s): a sample, timed against the same sample. */
const SAMPLE_STEPS = 60_000;

async function bareParse(path: string): Promise<number> {
  let count = 0;
  for await (const batch of readFileLines(path)) for (const line of batch) if (JSON.parse(line.raw)) count++;
  return count;
}

function seconds(run: () => unknown): number {
  const t = performance.now();
  run();
  return (performance.now() - t) / 1000;
}

function stepsOf(path: string): string[] {
  const steps: string[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) if (line) steps.push(...(JSON.parse(line) as { output: string }).output.split('\n\n'));
  return steps;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Process CPU time in seconds (user + system): what one thread spends, whatever else the machine runs. */
function cpuSeconds(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
}

/**
 * The checker and its frozen copy on the same steps, in alternating slices of 2,000 steps, each
 * timed by CPU time: both see the same load, so the ratio holds on a busy machine. One warm-up
 * pass, then `rounds` rounds (seconds per round for each).
 */
function pairedRatios(sample: readonly string[], rounds: number): { now: number; before: number }[] {
  for (const step of sample) {
    judgeStep(step);
    judgeStepBefore(step);
  }
  const out: { now: number; before: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    let now = 0;
    let before = 0;
    for (let i = 0; i < sample.length; i += 2000) {
      const slice = sample.slice(i, i + 2000);
      let t = cpuSeconds();
      for (const step of slice) judgeStep(step);
      now += cpuSeconds() - t;
      t = cpuSeconds();
      for (const step of slice) judgeStepBefore(step);
      before += cpuSeconds() - t;
    }
    out.push({ now, before });
  }
  return out;
}

/**
 * Milliseconds from spawn to exit of `node args`, paired with a bare `node -e 0`, medians of
 * `rounds`; with `env`, a third run of the same command under those variables joins each pair.
 */
function startUp(args: string[], rounds: number, env?: Record<string, string>): { command: number; bare: number; other: number } {
  const command: number[] = [];
  const bare: number[] = [];
  const other: number[] = [];
  const runs: { into: number[]; argv: string[]; withEnv?: NodeJS.ProcessEnv }[] = [{ into: bare, argv: ['-e', '0'] }, { into: command, argv: args }];
  if (env) runs.push({ into: other, argv: args, withEnv: { ...process.env, ...env } });
  for (let k = 0; k < rounds; k++) {
    for (const { into, argv, withEnv } of runs) {
      const t = performance.now();
      const out = spawnSync(process.execPath, argv, { encoding: 'utf8', ...(withEnv ? { env: withEnv } : {}) });
      into.push(performance.now() - t);
      if (out.status !== 0) throw new Error(out.stderr);
    }
  }
  return { command: median(command), bare: median(bare), other: median(other) };
}

export async function run(): Promise<BenchResult[]> {
  mkdirSync(DIR, { recursive: true });
  const path = join(DIR, 'dump-50mb-no-scores.jsonl');
  if (!existsSync(path)) writeDump(path, 50 * 1024 * 1024, false);
  const size = statSync(path).size;
  // Paired rounds: the bare read, `report` judging in this thread, `report` with a checker worker per core.
  const bases: number[] = [];
  const singles: number[] = [];
  const pooled: number[] = [];
  let rollouts = 0;
  for (let round = 0; round < 3; round++) {
    let t = performance.now();
    rollouts = await bareParse(path);
    bases.push((performance.now() - t) / 1000);
    for (const [into, threads] of [[singles, 1], [pooled, availableParallelism()]] as const) {
      t = performance.now();
      const analysis = await analyseFile(path, { scorer: 'auto', checkerThreads: threads }, io);
      into.push((performance.now() - t) / 1000);
      if (analysis.scorer.kind !== 'checker' || analysis.report.rollouts !== rollouts) throw new Error('report did not check every rollout');
    }
  }
  const baseSeconds = median(bases);
  const reportSeconds = median(singles);
  const pooledSeconds = median(pooled);
  const speedUps = singles.map((one, k) => one / (pooled[k] as number));
  const steps = stepsOf(path);
  const sample = steps.slice(0, SAMPLE_STEPS);
  const paired = pairedRatios(sample, 3);
  const now = median(paired.map((p) => p.now));
  const before = median(paired.map((p) => p.before));
  const allNow = seconds(() => steps.forEach(judgeStep));
  // The report before the rewrite, estimated: this run's report plus what the frozen checker costs more per step.
  const reportBefore = reportSeconds + (before - now) / sample.length * steps.length;
  const one = join(DIR, 'one-line.jsonl');
  writeFileSync(one, `${JSON.stringify({ prompt: 'What is 6 * 7?', response: 'We get 6 * 7 = 42.\n\nThe answer is 42', gold: '42', score: 1 })}\n`);
  // The first run writes the code cache; the median is of runs that read it.
  const start = startUp([join(process.cwd(), 'dist/cli.js'), 'report', one], 15, { PROF_LENS_CODE_CACHE: '0' });
  const base = { name: 'read + JSON.parse only', value: rollouts / baseSeconds };
  const frozen = { name: 'the frozen checker before the rewrite, same steps', value: sample.length / before };
  return [
    { name: `baseline: read + JSON.parse (${(size / 1048576).toFixed(1)} MB, ${rollouts} rollouts, no step scores)`, value: base.value, unit: 'rollouts/s' },
    { name: 'report with the embedded checker, one thread (no step scores)', value: rollouts / reportSeconds, unit: 'rollouts/s', baseline: base, ratio: rollouts / reportSeconds / base.value, note: `${reportSeconds.toFixed(2)} s; before the rewrite (estimated) ${reportBefore.toFixed(2)} s, ratio ${(rollouts / reportBefore / base.value).toFixed(3)}: ${(reportBefore / reportSeconds).toFixed(1)}× faster, target ≥ 10×` },
    { name: `report with a checker worker per core (${availableParallelism()} cores)`, value: rollouts / pooledSeconds, unit: 'rollouts/s', baseline: { name: 'the same report judging in one thread', value: rollouts / reportSeconds }, ratio: median(speedUps), note: `${pooledSeconds.toFixed(2)} s; load average ${loadavg()[0]?.toFixed(1)}; paired rounds ${speedUps.map((r) => r.toFixed(2)).join(', ')}, median shown; target ≥ 1.7× on 2 cores; against the frozen checker's estimate ${(reportBefore / pooledSeconds).toFixed(1)}× faster` },
    { name: `checker alone, ${sample.length} steps (CPU time, paired slices)`, value: sample.length / now, unit: 'steps/s', baseline: frozen, ratio: median(paired.map((p) => p.before / p.now)), note: `rounds ${paired.map((p) => (p.before / p.now).toFixed(2)).join(', ')}, median shown; every step of the file: ${(size / 1048576 / allNow).toFixed(0)} MB/s of dump` },
    { name: 'start-up: report on a one-line file (median of 15)', value: start.command, unit: 'ms', baseline: { name: 'bare node -e 0', value: start.bare }, ratio: start.command / start.bare, note: `${(start.command - start.bare).toFixed(0)} ms over a bare node; target ≤ 30 ms` },
    { name: 'start-up without the code cache (PROF_LENS_CODE_CACHE=0)', value: start.other, unit: 'ms', baseline: { name: 'bare node -e 0', value: start.bare }, ratio: start.other / start.bare, note: `${(start.other - start.bare).toFixed(0)} ms over a bare node` },
  ];
}
