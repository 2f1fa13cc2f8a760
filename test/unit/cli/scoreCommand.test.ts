import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { fakeScore, startFakeServer, type FakeServer } from '../scoring/scorers/http/fakePoolingServer';
import { splitSteps } from '../../../src/core/steps/splitSteps';

const ROOT = join(__dirname, '../../..');
const EXAMPLE = join(ROOT, 'examples/gsm-rollouts.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-score-'));

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/cli.js')) || !existsSync(join(ROOT, 'dist/onnxWorker.js'))) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT });
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-tiny-model.mjs'), dir, '--only', 'tiny']);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cliProcess(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), ...args], { encoding: 'utf8', cwd: ROOT });
}

describe('prof-lens score with a local ONNX model (tiny test model through the real onnxruntime-node)', () => {
  it('adds step_scores and step_scores_meta to every line, keeping every other byte of the line', () => {
    const out = join(dir, 'scored.jsonl');
    const result = cliProcess(['score', EXAMPLE, '-o', out, '--model', join(dir, 'tiny'), '--cache-dir', join(dir, 'cache')]);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/scoring with onnx qwen-prm \(cpu/);
    // The platform default tries cuda first; without its library it is skipped, not attempted, so
    // onnxruntime prints no red loader error, and the user is told why cpu runs.
    expect(result.stderr).toMatch(/\(cpu; cuda unavailable\)/);
    expect(result.stderr).not.toMatch(/\[E:onnxruntime|Failed to load library/);
    const input = readFileSync(EXAMPLE, 'utf8').trim().split('\n');
    const output = readFileSync(out, 'utf8').trim().split('\n');
    expect(output.length).toBe(input.length);
    output.forEach((line, i) => {
      const record = JSON.parse(line);
      const original = JSON.parse(input[i]!);
      expect(record.step_scores.length).toBe(splitSteps(original.response, 'double-newline').length);
      expect(record.step_scores.every((s: number) => s > 0 && s < 1)).toBe(true);
      expect(record.step_scores_meta).toMatchObject({ scorer: 'onnx', profile: 'qwen-prm', provider: 'cpu' });
      // The original fields come first, byte for byte.
      expect(line.startsWith(input[i]!.slice(0, -1))).toBe(true);
    });
  });

  it('report --model scores with the model and says which provider ran it', () => {
    const result = cliProcess(['report', EXAMPLE, '--json', '--model', join(dir, 'tiny'), '--cache-dir', join(dir, 'cache')]);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.scorer).toMatchObject({ kind: 'onnx', provider: 'cpu' });
    expect(report.scorers).toEqual({ 'onnx:qwen-prm@cpu': 72 });
  });

  it('a folder that is not a model is a clear error with exit code 2', () => {
    const result = cliProcess(['report', EXAMPLE, '--model', dir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/prof-lens\.json|model/);
  });
});

describe('prof-lens score with a vLLM /pooling endpoint', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
  });
  afterAll(() => server.close());

  it('scores through the endpoint, asks /v1/models for the model, and writes atomically', async () => {
    const input = join(dir, 'grouped.jsonl');
    writeFileSync(input, '{"problem": "P", "responses": ["a1\\n\\nb22", "c333"], "score": [1, 0]}\n{"prompt": oops}\n');
    const out = join(dir, 'grouped-scored.jsonl');
    let stderr = '';
    const code = await runCli(['score', input, '-o', out, '--url', server.url, '--no-cache'], { stdout: () => undefined, stderr: (t) => (stderr += t), isStderrTty: false, cwd: dir });
    expect(code).toBe(1);
    expect(stderr).toMatch(/grouped\.jsonl:2: .*copied unchanged/);
    const [first, second] = readFileSync(out, 'utf8').trim().split('\n');
    const record = JSON.parse(first!);
    expect(record.step_scores).toEqual([[fakeScore('a1'), fakeScore('b22')], [fakeScore('c333')]]);
    expect(record.step_scores_meta).toMatchObject({ scorer: 'http', model: 'Qwen/Qwen2.5-Math-PRM-7B' });
    expect(second).toBe('{"prompt": oops}');
    expect(server.requests.some((r) => r.path === '/v1/models')).toBe(true);
  });

  it('an unreachable endpoint fails clearly and leaves no output file', async () => {
    const out = join(dir, 'never.jsonl');
    let stderr = '';
    const code = await runCli(['score', EXAMPLE, '-o', out, '--url', 'http://127.0.0.1:9', '--no-cache'], { stdout: () => undefined, stderr: (t) => (stderr += t), isStderrTty: false, cwd: dir });
    expect(code).toBe(2);
    expect(stderr).toMatch(/127\.0\.0\.1:9/);
    expect(existsSync(out)).toBe(false);
  });
});
