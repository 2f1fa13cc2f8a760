/**
 * Report throughput on a generated ~50 MB flat dump with step scores, against a baseline that only
 * reads the file and JSON.parses each line, in the same run; and the report's peak memory
 * (measured in a child process) against the file size.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readFileLines } from '../../src/scoring/analysis/fileLines';
import { analyseFile } from '../../src/cli/analyseFile';
import type { BenchResult } from './types';

const DIR = 'test-output/bench';
const io = { stdout: () => undefined, stderr: () => undefined, isStderrTty: false, cwd: process.cwd() };

/** A verl-like dump: 8 responses per prompt, 4–40 steps each, step scores and a binary score. */
export function writeDump(path: string, targetBytes: number, withScores = true): number {
  const lines: string[] = [];
  let bytes = 0;
  let seed = 12345;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; bytes < targetBytes; i++) {
    const prompt = `Problem ${Math.floor(i / 8)}: compute ${Math.floor(i / 8) * 7} + ${(i % 97) + 3} and explain each step carefully.`;
    const h = 4 + Math.floor(rand() * 36);
    const steps = Array.from({ length: h }, (_, k) => `Step ${k + 1}: we have ${k * 3} + ${k + 2} = ${k * 4 + 2}, and so the running total grows by a few units as the "reasoning" goes on.`);
    steps.push(`The answer is \\boxed{${i % 13}}.`);
    const record: Record<string, unknown> = { input: prompt, output: steps.join('\n\n'), gts: String(i % 11), step: 100, uid: `u${Math.floor(i / 8)}` };
    if (withScores) {
      record.score = rand() < 0.5 ? 1.0 : 0.0;
      record.step_scores = steps.map(() => Math.round(rand() * 1000) / 1000);
    }
    const line = JSON.stringify(record);
    lines.push(line);
    bytes += line.length + 1;
  }
  writeFileSync(path, lines.join('\n') + '\n');
  return lines.length;
}

async function baseline(path: string): Promise<number> {
  let count = 0;
  for await (const batch of readFileLines(path)) for (const line of batch) if (JSON.parse(line.raw)) count++;
  return count;
}

function peakRss(script: string): number {
  const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(out.stderr);
  return Number(out.stdout.trim().split('\n').pop());
}

export async function run(): Promise<BenchResult[]> {
  mkdirSync(DIR, { recursive: true });
  const path = join(DIR, 'dump-50mb.jsonl');
  if (!existsSync(path)) writeDump(path, 50 * 1024 * 1024);
  const size = statSync(path).size;
  // Alternate baseline and report, best of three each: the machine is shared and noisy.
  let baseSeconds = Infinity;
  let reportSeconds = Infinity;
  let rollouts = 0;
  for (let round = 0; round < 3; round++) {
    let t = performance.now();
    rollouts = await baseline(path);
    baseSeconds = Math.min(baseSeconds, (performance.now() - t) / 1000);
    t = performance.now();
    const analysis = await analyseFile(path, { scorer: 'auto' }, io);
    reportSeconds = Math.min(reportSeconds, (performance.now() - t) / 1000);
    if (analysis.report.rollouts !== rollouts) throw new Error(`report saw ${analysis.report.rollouts} rollouts, baseline ${rollouts}`);
  }
  const cli = join(process.cwd(), 'dist/cli.js');
  const rss = peakRss(`require(${JSON.stringify(cli)}).runCli(['report', ${JSON.stringify(path)}, '--json'], {stdout(){}, stderr(){}, isStderrTty:false, cwd:process.cwd()}).then(() => console.log(process.resourceUsage().maxRSS * 1024))`);
  const rssBase = peakRss(`console.log(process.resourceUsage().maxRSS * 1024)`);
  const base = { name: 'read + JSON.parse only', value: rollouts / baseSeconds };
  return [
    { name: `baseline: read + JSON.parse (${(size / 1048576).toFixed(1)} MB, ${rollouts} rollouts)`, value: base.value, unit: 'rollouts/s' },
    { name: 'full report (file step scores, PROF, report)', value: rollouts / reportSeconds, unit: 'rollouts/s', baseline: base, ratio: rollouts / reportSeconds / base.value, note: 'target ≥ 0.5' },
    { name: 'report peak RSS / file size', value: rss / size, unit: '×', note: `peak ${(rss / 1048576).toFixed(0)} MB, bare node ${(rssBase / 1048576).toFixed(0)} MB; target < 3×` },
  ];
}
