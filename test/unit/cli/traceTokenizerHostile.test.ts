/**
 * Token-id traces whose tokenizer comes with the run folder: untrusted input. Before: the metadata's
 * `model_name` could name any folder; the tokenizer ran in the command's own thread with no budget
 * (a decoder `Replace` pattern `^(a+)+$` hung `report` for ever, deaf to Ctrl-C); nothing capped the
 * decoded text (a 40 KB file decoded to gigabytes); a FIFO named `*_metadata.jsonl` or
 * `tokenizer_config.json` hung `report` and `trend`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-trace-tokenizer-'));
// Reports the process's peak memory (workers included) as it exits.
const PEAK = join(dir, 'peak.cjs');
beforeAll(() => {
  if (!existsSync(CLI) || !existsSync(join(ROOT, 'dist/traceDecoderWorker.js'))) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT });
  writeFileSync(PEAK, "process.on('exit', () => process.stderr.write(`peak-rss-kb=${process.resourceUsage().maxRSS}\\n`));\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORDS = ['▁What', '▁is', '▁2', '▁+', '▁=', '▁4', '▁So', '▁the', '▁answer', '.', '\n\n', '####', '?'];
const EVIL = 'a'.repeat(40) + 'b';
const BIG = 'x'.repeat(1 << 20);
const id = (word: string): number => WORDS.indexOf(word);
const PROMPT = ['▁What', '▁is', '▁2', '▁+', '▁2', '?'].map(id);
const RESPONSE = ['▁2', '▁+', '▁2', '▁=', '▁4', '.', '\n\n', '▁So', '▁the', '▁answer', '▁is', '▁4', '.', '\n\n', '####', '▁4'].map(id);

/** A WordLevel tokenizer; `pattern` adds a Replace decoder with that regex after the `▁` one. */
function tokenizerJson(pattern?: string): string {
  const vocab = Object.fromEntries([...WORDS, EVIL, BIG].map((w, i) => [w, i]));
  const space = { type: 'Replace', pattern: { String: '▁' }, content: ' ' };
  const decoder = pattern ? { type: 'Sequence', decoders: [space, { type: 'Replace', pattern: { Regex: pattern }, content: '' }] } : space;
  return JSON.stringify({ version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer: null, pre_tokenizer: { type: 'WhitespaceSplit' }, post_processor: null, decoder, model: { type: 'WordLevel', vocab, unk_token: '?' } });
}

function trace(response: number[], promptIdx: number): string {
  return JSON.stringify({ prompt_tokens: PROMPT, response_tokens: response, reward: 10.0, step: 1, prompt_idx: promptIdx, ground_truth: '4' });
}

/** A run folder: metadata naming `model`, the traces, and (when given) a tokenizer folder `tok` inside it. */
function runFolder(name: string, lines: string[], options: { model?: string; tokenizer?: string } = {}): { run: string; file: string } {
  const run = join(dir, name);
  mkdirSync(run);
  writeFileSync(join(run, 'r_metadata.jsonl'), JSON.stringify({ run_name: 'r', git_commit: 'x', model_name: options.model ?? 'tok', timestamp: 't' }) + '\n');
  const file = join(run, 'r_rollouts_000000.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  if (options.tokenizer !== undefined) {
    mkdirSync(join(run, 'tok'));
    writeFileSync(join(run, 'tok', 'tokenizer.json'), options.tokenizer);
  }
  return { run, file };
}

function cli(args: string[], env: Record<string, string> = {}): { code: number | null; out: string; err: string; seconds: number; peakMb: number } {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['-r', PEAK, CLI, ...args], { encoding: 'utf8', env: { ...process.env, HOME: dir, HF_HUB_CACHE: join(dir, 'no-cache'), ...env }, timeout: 60_000 });
  const peak = /peak-rss-kb=(\d+)/.exec(result.stderr);
  return { code: result.status, out: result.stdout, err: result.stderr, seconds: (performance.now() - started) / 1000, peakMb: peak ? Number(peak[1]) / 1024 : Infinity };
}

describe('a tokenizer shipped inside the run folder', () => {
  it('is used, and the command says which and where', () => {
    const { file, run } = runFolder('good', [trace(RESPONSE, 0), trace(RESPONSE, 0)], { tokenizer: tokenizerJson() });
    const result = cli(['report', file, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out).rollouts).toBe(2);
    expect(result.err).toContain(`token ids decoded with the tokenizer of tok (from the run's folder: ${join(run, 'tok')})`);
  });

  it('a folder the metadata names outside the run folder is not used: the message says so and how to give it', () => {
    const outside = join(dir, 'elsewhere');
    mkdirSync(outside);
    writeFileSync(join(outside, 'tokenizer.json'), tokenizerJson());
    const { file } = runFolder('outside', [trace(RESPONSE, 0)], { model: outside });
    const result = cli(['report', file]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^[^\n]*names [^\n]*elsewhere, whose tokenizer\.json is outside the run's folder, and a tokenizer is taken from outside it only when you give it: --tokenizer /);
    // Given by the user, it is used.
    expect(cli(['report', file, '--tokenizer', outside]).code).toBe(0);
  });

  it('a tokenizer.json inside the run folder that links outside it is not used', () => {
    const { file, run } = runFolder('linked', [trace(RESPONSE, 0)]);
    mkdirSync(join(run, 'tok'));
    writeFileSync(join(dir, 'outside-tokenizer.json'), tokenizerJson());
    symlinkSync(join(dir, 'outside-tokenizer.json'), join(run, 'tok', 'tokenizer.json'));
    const result = cli(['report', file]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^[^\n]*names [^\n]*tok, whose tokenizer\.json is outside the run's folder/);
  });
});

describe('a decoder pattern that backtracks without end', () => {
  const evil = (): { file: string } => runFolder(`evil-${Math.random().toString(36).slice(2)}`, [trace(RESPONSE, 0), trace([...RESPONSE, WORDS.length], 1), trace(RESPONSE, 2)], { tokenizer: tokenizerJson('^(a+)+$') });

  it('is stopped at the 15 s budget a model folder\'s tokenizer has; the lines decoded before are reported', () => {
    const result = cli(['report', evil().file, '--json']);
    expect(result.seconds).toBeLessThan(25);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/line 2: open-instruct traces hold token ids only, and the tokenizer tok \(from the run's folder: [^)]*\) took more than 15 s to load or to decode the token ids of line 2: a pattern in its tokenizer\.json backtracks without end on some text; it is not used/);
    expect(result.err).not.toMatch(/\n\s+at /);
    expect(JSON.parse(result.out).rollouts).toBe(1);
  }, 40_000);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} ends the command at once while the tokenizer is stuck`, async () => {
      const child = spawn(process.execPath, [CLI, 'report', evil().file], { stdio: 'ignore', env: { ...process.env, HOME: dir } });
      const exited = new Promise<number>((resolve) => child.on('exit', () => resolve(performance.now())));
      await new Promise((r) => setTimeout(r, 3_000));
      expect(child.exitCode).toBeNull();
      const sent = performance.now();
      child.kill(signal);
      expect((await exited) - sent).toBeLessThan(2_000);
    }, 20_000);
  }
});

describe('the decoded text is capped per line', () => {
  it('20 lines of 400 one-megabyte tokens (18 KB; 8 GB decoded) are named and not decoded; the other line is read', () => {
    const lines = Array.from({ length: 20 }, (_, i) => trace(Array.from({ length: 400 }, () => WORDS.length + 1), i));
    const { file } = runFolder('big', [...lines, trace(RESPONSE, 99)], { tokenizer: tokenizerJson() });
    expect(statSync(file).size).toBeLessThan(40_000);
    const result = cli(['report', file, '--json']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/line 1: response_tokens: its 400 token ids hold 419,430,400 characters, over the 4,194,304 one line may decode to: the trace is not read/);
    expect(result.err).toMatch(/line 20: response_tokens: its 400 token ids/);
    expect(JSON.parse(result.out).rollouts).toBe(1);
    expect(result.seconds).toBeLessThan(10);
    expect(result.peakMb).toBeLessThan(400);
  });
});

describe('side files that are not small regular files', () => {
  it('a FIFO as the run\'s metadata or as tokenizer_config.json hangs neither report nor trend', () => {
    const { file, run } = runFolder('fifos', [trace(RESPONSE, 0)], { tokenizer: tokenizerJson() });
    execFileSync('mkfifo', [join(run, 'tok', 'tokenizer_config.json')]);
    const withConfigFifo = cli(['report', file, '--json']);
    expect(withConfigFifo.seconds).toBeLessThan(10);
    expect(withConfigFifo.code).toBe(0);
    expect(JSON.parse(withConfigFifo.out).rollouts).toBe(1);
    rmSync(join(run, 'r_metadata.jsonl'));
    execFileSync('mkfifo', [join(run, 'r_metadata.jsonl')]);
    execFileSync('mkfifo', [join(run, 'run_metadata.jsonl')]);
    const report = cli(['report', file]);
    expect(report.seconds).toBeLessThan(10);
    expect(report.code).toBe(1);
    expect(report.err).toMatch(/no \*_metadata\.jsonl beside this file names the model/);
    const trend = cli(['trend', run, '--no-cache']);
    expect(trend.seconds).toBeLessThan(10);
    expect(trend.code).toBe(1);
    // Said once for the file, not once per step.
    expect(trend.err.match(/no \*_metadata\.jsonl beside this file names the model/g)).toHaveLength(1);
  });
});
