/**
 * Report throughput on a generated ~50 MB flat dump with step scores, against a baseline that only
 * reads the file and JSON.parses each line, in the same run: in this process (best of three), and
 * as whole processes (`report`, `filter` and `trend` against a bare read + JSON.parse process, run
 * in turn, the median of five rounds); and the report's peak memory (a child process) against the
 * file size.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * The bare baseline as its own process: 1 MB reads, one decode per read, lines split at `\n`,
 * `JSON.parse` of each; it prints the number of records.
 */
const BARE_SCRIPT = `const fs=require('fs');const {StringDecoder}=require('string_decoder');const fd=fs.openSync(process.argv[1],'r');const b=Buffer.allocUnsafe(1<<20);const d=new StringDecoder('utf8');let rest='',n=0,r;while((r=fs.readSync(fd,b,0,b.length,null))>0){const lines=(rest+d.write(b.subarray(0,r))).split('\\n');rest=lines.pop();for(const l of lines)if(l&&JSON.parse(l))n++}rest+=d.end();if(rest&&JSON.parse(rest))n++;console.log(n)`;

/** Seconds a whole process takes (start to exit); throws when it fails. */
function timed(args: string[]): { seconds: number; stdout: string } {
  const t = performance.now();
  const out = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - t) / 1000;
  if (out.status !== 0) throw new Error(`${args.join(' ')}: exit ${out.status}: ${out.stderr}`);
  return { seconds, stdout: out.stdout };
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * `report --json`, `filter -o` and `trend --json` (a run of this one step file, no cache) as whole
 * processes against the bare read + JSON.parse process, in turn, round after round: each round's
 * ratio is the bare seconds over the command's, and the figure is their median.
 */
function wholeProcesses(path: string, rollouts: number, rounds = 5): BenchResult[] {
  const cli = join(process.cwd(), 'dist/cli.js');
  const runDir = join(DIR, 'run-one-step');
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, '100.jsonl'), readFileSync(path));
  const kept = join(DIR, 'kept.jsonl');
  const commands: Record<string, string[]> = {
    report: [cli, 'report', path, '--json'],
    filter: [cli, 'filter', path, '-o', kept, '--no-cache'],
    trend: [cli, 'trend', runDir, '--json', '--no-cache'],
  };
  const bare: number[] = [];
  const ratios: Record<string, number[]> = { report: [], filter: [], trend: [] };
  const seconds: Record<string, number[]> = { report: [], filter: [], trend: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      const base = timed(['-e', BARE_SCRIPT, path]);
      if (Number(base.stdout.trim()) !== rollouts) throw new Error(`the bare read saw ${base.stdout.trim()} records, expected ${rollouts}`);
      bare.push(base.seconds);
      for (const [name, args] of Object.entries(commands)) {
        const s = timed(args).seconds;
        seconds[name]!.push(s);
        ratios[name]!.push(base.seconds / s);
      }
    }
  } finally {
    rmSync(runDir, { recursive: true, force: true });
    rmSync(kept, { force: true });
  }
  const baseline = { name: 'bare read + JSON.parse process', value: rollouts / median(bare) };
  const range = (xs: number[]): string => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
  return [
    { name: `whole process: bare read + JSON.parse (median of ${rounds})`, value: baseline.value, unit: 'rollouts/s', note: `${median(bare).toFixed(2)} s` },
    ...Object.keys(commands).map((name) => ({
      name: `whole process: ${name} (file step scores), median of ${rounds} paired rounds`,
      value: rollouts / median(seconds[name]!),
      unit: 'rollouts/s',
      baseline,
      ratio: median(ratios[name]!),
      note: `${median(seconds[name]!).toFixed(2)} s; ratios ${range(ratios[name]!)}; target ≥ 1.0`,
    })),
  ];
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
    { name: 'full report (file step scores, PROF, report)', value: rollouts / reportSeconds, unit: 'rollouts/s', baseline: base, ratio: rollouts / reportSeconds / base.value, note: 'in this process, best of three; target ≥ 1.0' },
    ...wholeProcesses(path, rollouts),
    { name: 'report peak RSS / file size', value: rss / size, unit: '×', note: `peak ${(rss / 1048576).toFixed(0)} MB, bare node ${(rssBase / 1048576).toFixed(0)} MB; target < 3×` },
  ];
}
