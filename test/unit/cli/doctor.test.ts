/**
 * `prof-lens doctor` as a user runs it: the built CLI in its own process, a tiny generated model
 * (through the real onnxruntime-node; its scores test plumbing only), and the exit codes a script
 * can rely on.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-doctor-'));

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/cli.js')) || !existsSync(join(ROOT, 'dist/onnxWorker.js'))) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT });
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-tiny-model.mjs'), dir, '--only', 'tiny']);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function doctor(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'doctor', ...args], { encoding: 'utf8', cwd: ROOT });
}

describe('prof-lens doctor', () => {
  it('checks a model folder, names the provider that runs and prints a timed smoke score; exit 0', () => {
    const result = doctor(['--model', join(dir, 'tiny'), '--providers', 'cpu']);
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n').slice(0, 2)).toEqual(['PROF Lens setup check: all checks passed', 'Active execution provider: cpu']);
    expect(result.stdout).toMatch(/· PROF Lens {10}\d+\.\d+\.\d+\n/);
    expect(result.stdout).toContain('· host               prof-lens command line');
    expect(result.stdout).toMatch(/✓ smoke score {8}3 steps scored in \d+ ms: \d\.\d{3}, \d\.\d{3}, \d\.\d{3}\n/);
  });

  it('prints the report as JSON with --json', () => {
    const result = doctor(['--model', join(dir, 'tiny'), '--providers', 'cpu', '--json']);
    const report = JSON.parse(result.stdout) as { errors: number; activeProvider: string; sections: { title: string }[] };
    expect(report).toMatchObject({ errors: 0, activeProvider: 'cpu' });
    expect(report.sections.map((s) => s.title)).toEqual(['Environment', 'ONNX Runtime', 'Model folder', 'vLLM endpoint']);
  });

  it('exits 1 when a check fails, naming what is missing', () => {
    const result = doctor(['--model', join(dir, 'nowhere')]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`✗ files              ${join(dir, 'nowhere')} is not a folder`);
  });

  it('exits 2 on a usage error, and prof-lens --help lists doctor', () => {
    expect(doctor(['rollouts.jsonl']).status).toBe(2);
    const help = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), '--help'], { encoding: 'utf8' });
    expect(help.stdout).toContain('prof-lens doctor [--model <dir>] [--url <endpoint>]');
  });
});
