/**
 * The built command line as a user runs it (`dist/cli.js`): the libraries only some commands use
 * live in bundles of their own beside the commands' bundle and load on first use, and each
 * command's start reads a compiled-code cache of its own. What it prints is what the commands
 * print in-process.
 */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { qwenTokenizerDir } from '../scoring/scorers/onnx/fixtures';

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'dist/cli.js');
const TRAINERS = join(ROOT, 'test/fixtures/trainers');

let temp: string;

beforeAll(() => {
  if (!existsSync(CLI)) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT });
  temp = mkdtempSync(join(tmpdir(), 'prof-lens-built-'));
});

afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The built binary, its temporary folder (where its code cache lives) set to this test's. */
function built(...argv: string[]): { status: number | null; stdout: string; stderr: string } {
  const out = spawnSync(process.execPath, [CLI, ...argv], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TMPDIR: temp } });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

async function inProcess(...argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: () => undefined, isStderrTty: false, cwd: ROOT });
  return { code, out };
}

describe('the built CLI', () => {
  it('leaves RE2, the parquet reader and the tokenizer out of the commands bundle', () => {
    const bundle = readFileSync(join(ROOT, 'dist/cliMain.js'), 'utf8');
    for (const library of ['node_modules/re2js', 'node_modules/hyparquet', 'node_modules/@huggingface/tokenizers']) expect(bundle).not.toContain(library);
    for (const name of ['re2js', 'hyparquet', 'tokenizers']) expect(existsSync(join(ROOT, `dist/vendor/${name}.js`))).toBe(true);
  });

  it.each([
    ['a regex: split (RE2)', ['report', 'examples/gsm-rollouts.jsonl', '--split', 'regex:\\n\\n', '--json']],
    ['a parquet file', ['report', 'test/fixtures/trainers/trl/grpo-qwen2.5-gsm8k/completions/completions_00001.parquet', '--json']],
  ])('loads its library on first use: %s reads as it does in-process', async (_what, argv) => {
    const expected = await inProcess(...argv);
    const result = built(...argv);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(expected.code);
    expect(result.stdout).toBe(expected.out);
    expect(JSON.parse(result.stdout).rollouts).toBeGreaterThan(0);
  });

  it('loads the tokenizer on first use: token-id traces read as they do in-process', async () => {
    const argv = ['report', join(TRAINERS, 'open-instruct/rollouts/grpo_qwen_gsm8k__1__1766000000_rollouts_000000.jsonl'), '--tokenizer', qwenTokenizerDir()];
    const expected = await inProcess(...argv);
    const result = built(...argv);
    expect(result.status).toBe(expected.code);
    expect(result.stdout).toBe(expected.out);
    expect(result.stdout).toContain('read as: open-instruct traces');
  });

  it('keeps a compiled-code cache per command, and a start from it prints the same', () => {
    const first = built('report', 'examples/gsm-rollouts.jsonl');
    const again = built('report', 'examples/gsm-rollouts.jsonl');
    built('doctor', '--help');
    expect(first.status).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    const folder = readdirSync(temp).find((name) => name.startsWith('prof-lens-code-cache'));
    expect(folder).toBeDefined();
    const caches = readdirSync(join(temp, folder as string));
    expect(caches.filter((name) => name.endsWith('-report.bin'))).toHaveLength(1);
    expect(caches.filter((name) => name.endsWith('-doctor.bin'))).toHaveLength(1);
  });
});
