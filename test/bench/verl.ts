/**
 * `report` on a dump shaped as verl's rollout dumps are (`input` the chat prompt as decoded text,
 * `output`, `gts`, `score`, `step`, `step_scores`; about 3.4 KB a line, 50 MB), as whole processes,
 * against what someone would write by hand to answer the same question ("per prompt: rollouts,
 * correct, mean step score"): a bare Node `readline` + `JSON.parse` loop, and DuckDB's
 * `read_json` with a GROUP BY (from a Python that has `duckdb`, when there is one: see
 * `DUCKDB_PYTHON`), on that dump and on the core benchmark's own. Also the same dump without step scores (the checker judges every step)
 * against the bare loop, and the editor's analysis worker against `report`. Rounds alternate the
 * processes; each figure is the median of the rounds' ratios. The dumps are written to a
 * temporary folder and deleted afterwards.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDump } from './core';
import { childRun } from './largeFile';
import type { BenchResult } from './types';

const SYSTEM = 'system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.\nuser\n';
const ASK = ' Let\'s think step by step and output the final answer after "####".\nassistant\n';

/**
 * A verl-shaped dump, deterministic: 8 rollouts per prompt, 14–34 steps each ending `#### n`, a
 * binary score, the step scores when `withScores`. Returns the number of lines.
 */
export function writeVerlDump(path: string, targetBytes: number, withScores: boolean): number {
  let seed = 20261203;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const chunks: string[] = [];
  let bytes = 0;
  let lines = 0;
  for (let i = 0; bytes < targetBytes; i++, lines++) {
    const p = i >> 3;
    const question = `A shop sells ${p % 50 + 3} boxes of pencils on Monday and ${(p * 7) % 40 + 5} boxes on Tuesday. Each box holds ${p % 12 + 6} pencils, and the shop gives away ${p % 9 + 2} pencils with every box sold. How many pencils leave the shop over the two days (problem ${p})?`;
    const answer = p % 97 + 10;
    const h = 14 + Math.floor(rand() * 21);
    const steps: string[] = [];
    for (let k = 0; k < h - 1; k++) {
      const a = Math.floor(rand() * 90) + 10;
      const b = Math.floor(rand() * 90) + 10;
      steps.push(`First, on day part ${k + 1} we add ${a} and ${b}: ${a}+${b}=<<${a}+${b}=${a + b}>>${a + b} pencils, which we carry into the running total.`);
    }
    steps.push(`So the total is ${rand() < 0.6 ? answer : answer + 1} pencils.\n#### ${rand() < 0.6 ? answer : answer + 1}`);
    const score = rand() < 0.5 ? 1.0 : 0.0;
    const record: Record<string, unknown> = { input: SYSTEM + question + ASK, output: steps.join('\n\n'), gts: String(answer), score, step: 1 + (p >> 8) };
    if (withScores) {
      // A PRM that mostly agrees: a correct rollout's steps score 0.6–1.0 with one weak step in ten
      // rollouts, an incorrect one's 0.1–0.9.
      const weak = score > 0 && rand() < 0.1 ? Math.floor(rand() * h) : -1;
      record.step_scores = steps.map((_, k) => Math.round((k === weak ? rand() * 0.3 : score > 0 ? 0.6 + rand() * 0.4 : 0.1 + rand() * 0.8) * 1000) / 1000);
    }
    const line = JSON.stringify(record) + '\n';
    chunks.push(line);
    bytes += Buffer.byteLength(line);
  }
  writeFileSync(path, chunks.join(''));
  return lines;
}

/** The hand-written Node answer: `readline` over a read stream, `JSON.parse` each line, a Map per prompt. */
const BARE_READLINE = `const fs=require('fs'),rl=require('readline');(async()=>{const g=new Map();let n=0;for await(const l of rl.createInterface({input:fs.createReadStream(process.argv[1]),crlfDelay:Infinity})){if(!l)continue;const r=JSON.parse(l);n++;let e=g.get(r.input);if(!e)g.set(r.input,e={n:0,c:0,s:0,k:0});e.n++;if(r.score>0)e.c++;const ss=r.step_scores;if(ss&&ss.length){let t=0;for(const x of ss)t+=x;e.s+=t/ss.length;e.k++}}console.log(n)})()`;

/** DuckDB's answer, in Python; it prints the number of rows read. */
const DUCKDB_SCRIPT = `import duckdb,sys
p=sys.argv[1]
rows=duckdb.sql(f"select input, count(*) n, sum(case when score>0 then 1 else 0 end) c, avg(list_avg(step_scores)) m from read_json('{p}', format='newline_delimited') group by input").fetchall()
print(sum(r[1] for r in rows))`;

/** A Python with `duckdb`: `DUCKDB_PYTHON`, else the benchmark's own virtual environment, if it has one. */
function duckdbPython(): string | undefined {
  const candidates = [process.env.DUCKDB_PYTHON, join(homedir(), '.cache/prof-lens-bench/venv/bin/python')];
  for (const python of candidates) {
    if (!python || !existsSync(python)) continue;
    if (spawnSync(python, ['-c', 'import duckdb'], { encoding: 'utf8' }).status === 0) return python;
  }
  return undefined;
}

/** `/usr/bin/time`, when the machine has it: each process's CPU time (user + system) is read from it. */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** A whole process: its wall seconds, its CPU seconds (NaN without `/usr/bin/time`) and its output; throws when it fails. */
function timed(command: string, args: string[]): { seconds: number; cpu: number; stdout: string } {
  const cpuFile = join(tmpdir(), `prof-lens-bench-cpu-${process.pid}`);
  rmSync(cpuFile, { force: true });
  const t = performance.now();
  const out = TIME
    ? spawnSync(TIME, ['-f', '%U %S', '-o', cpuFile, command, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
    : spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const seconds = (performance.now() - t) / 1000;
  if (out.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${out.status}: ${out.stderr}`);
  const cpu = TIME ? readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number).reduce((x, y) => x + y, 0) : NaN;
  return { seconds, cpu, stdout: out.stdout };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const range = (xs: number[]): string => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

export async function run(): Promise<BenchResult[]> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'prof-lens-verl-'));
  const cli = join(process.cwd(), 'dist/cli.js');
  const node = process.execPath;
  // `BENCH_BEFORE_CLI`: another build's `dist/cli.js`, timed in the same rounds (its output must be the same bytes).
  const before = process.env.BENCH_BEFORE_CLI;
  try {
    const scored = join(dir, 'verl-50mb.jsonl');
    const plain = join(dir, 'verl-50mb-no-step-scores.jsonl');
    const lines = writeVerlDump(scored, 50 * 1024 * 1024, true);
    const plainLines = writeVerlDump(plain, 50 * 1024 * 1024, false);
    const own = join(dir, 'core-50mb.jsonl');
    const ownLines = writeDump(own, 50 * 1024 * 1024);
    const python = duckdbPython();
    const files = [{ label: 'verl shape', path: scored, lines }, { label: "the core benchmark's dump", path: own, lines: ownLines }];
    const s: Record<string, number[]> = { bareChecker: [], checker: [], worker: [], workerReport: [] };
    const r: Record<string, number[]> = { checker: [], worker: [] };
    const push = (into: Record<string, number[]>, key: string, value: number): void => void (into[key] ??= []).push(value);
    for (let round = 0; round < rounds; round++) {
      for (const f of files) {
        const bare = timed(node, ['-e', BARE_READLINE, f.path]);
        if (Number(bare.stdout.trim()) !== f.lines) throw new Error(`the bare loop saw ${bare.stdout.trim()} records, expected ${f.lines}`);
        const report = timed(node, [cli, 'report', f.path, '--json', '--no-cache']);
        if (JSON.parse(report.stdout).rollouts !== f.lines) throw new Error(`report saw another number of rollouts in ${f.label}`);
        push(s, `bare ${f.label}`, bare.seconds);
        push(s, `report ${f.label}`, report.seconds);
        push(r, `bare ${f.label}`, bare.seconds / report.seconds);
        push(r, `cpu bare ${f.label}`, bare.cpu / report.cpu);
        if (before) {
          const old = timed(node, [before, 'report', f.path, '--json', '--no-cache']);
          if (old.stdout !== report.stdout) throw new Error(`report's output on ${f.label} differs from the build before`);
          push(s, `before ${f.label}`, old.seconds);
          push(r, `before ${f.label}`, old.seconds / report.seconds);
          push(r, `cpu before ${f.label}`, old.cpu / report.cpu);
        }
        if (python) {
          const duck = timed(python, ['-c', DUCKDB_SCRIPT, f.path]);
          if (Number(duck.stdout.trim()) !== f.lines) throw new Error(`DuckDB read ${duck.stdout.trim()} rows, expected ${f.lines}`);
          push(s, `duckdb ${f.label}`, duck.seconds);
          push(r, `duckdb ${f.label}`, duck.seconds / report.seconds);
          push(r, `cpu duckdb ${f.label}`, duck.cpu / report.cpu);
        }
      }
      const bareChecker = timed(node, ['-e', BARE_READLINE, plain]);
      const checker = timed(node, [cli, 'report', plain, '--json', '--no-cache']);
      s.bareChecker!.push(bareChecker.seconds);
      s.checker!.push(checker.seconds);
      r.checker!.push(bareChecker.seconds / checker.seconds);
      push(r, 'cpu checker', bareChecker.cpu / checker.cpu);
      const workerReport = childRun('large-report', scored).seconds;
      const worker = childRun('large-worker', scored).seconds;
      s.workerReport!.push(workerReport);
      s.worker!.push(worker);
      r.worker!.push(workerReport / worker);
    }
    const cpuRatio = (name: string): string => (r[name]?.every(Number.isFinite) ? `${median(r[name]!).toFixed(2)} (${range(r[name]!)})` : 'not measured');
    const sec = (name: string): string => `${median(s[name]!).toFixed(2)} s`;
    const results: BenchResult[] = [];
    for (const f of files) {
      const bareBase = { name: 'bare readline + JSON.parse process', value: f.lines / median(s[`bare ${f.label}`]!) };
      const value = f.lines / median(s[`report ${f.label}`]!);
      results.push(
        { name: `${f.label}: bare readline + JSON.parse (${f.lines} lines)`, value: bareBase.value, unit: 'rollouts/s', note: sec(`bare ${f.label}`) },
        { name: `${f.label}: report --json vs bare readline`, value, unit: 'rollouts/s', baseline: bareBase, ratio: median(r[`bare ${f.label}`]!), note: `${sec(`report ${f.label}`)}; rounds ${range(r[`bare ${f.label}`]!)}; CPU time ratio ${cpuRatio(`cpu bare ${f.label}`)}; target ≥ 1.0` },
      );
      if (before) results.push({ name: `${f.label}: report --json vs the build before`, value, unit: 'rollouts/s', baseline: { name: before, value: f.lines / median(s[`before ${f.label}`]!) }, ratio: median(r[`before ${f.label}`]!), note: `before ${sec(`before ${f.label}`)}; rounds ${range(r[`before ${f.label}`]!)}; CPU time ratio ${cpuRatio(`cpu before ${f.label}`)}` });
      if (python) {
        const duckBase = { name: 'DuckDB read_json + GROUP BY process', value: f.lines / median(s[`duckdb ${f.label}`]!) };
        results.push(
          { name: `${f.label}: DuckDB read_json + GROUP BY`, value: duckBase.value, unit: 'rollouts/s', note: sec(`duckdb ${f.label}`) },
          { name: `${f.label}: report --json vs DuckDB`, value, unit: 'rollouts/s', baseline: duckBase, ratio: median(r[`duckdb ${f.label}`]!), note: `rounds ${range(r[`duckdb ${f.label}`]!)}; CPU time ratio ${cpuRatio(`cpu duckdb ${f.label}`)} (DuckDB reads on every core); target ≥ 1.0` },
        );
      }
    }
    if (!python) results.push({ name: 'DuckDB baseline skipped', value: 0, unit: '', note: 'no Python with duckdb (set DUCKDB_PYTHON, or make ~/.cache/prof-lens-bench/venv): the ratios against DuckDB are not measured' });
    results.push(
      { name: 'verl shape, no step scores: report --json (checker) vs bare readline', value: plainLines / median(s.checker!), unit: 'rollouts/s', baseline: { name: 'bare readline + JSON.parse process', value: plainLines / median(s.bareChecker!) }, ratio: median(r.checker!), note: `${sec('checker')} against ${sec('bareChecker')}; rounds ${range(r.checker!)}; CPU time ratio ${cpuRatio('cpu checker')}; target ≥ 0.30` },
      { name: 'verl shape: editor worker vs report (children)', value: lines / median(s.worker!), unit: 'rollouts/s', baseline: { name: 'report --json in a child', value: lines / median(s.workerReport!) }, ratio: median(r.worker!), note: `${sec('worker')} against ${sec('workerReport')}; rounds ${range(r.worker!)}; target ≥ 0.70` },
    );
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(tmpdir(), `prof-lens-bench-cpu-${process.pid}`), { force: true });
  }
}
