/**
 * What the CLI does with outputs that would overwrite an input, with failures half-way through
 * writing, and with errors that are neither usage nor file errors: refuse with exit 2 and a
 * message, leave the input's bytes (and an old output) as they were, print no stack trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { startFakeServer, type FakeServer } from '../scoring/scorers/http/fakePoolingServer';

const ROOT = join(__dirname, '../../..');
const EXAMPLE = join(ROOT, 'examples/gsm-rollouts.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-safety-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number;
  out: string;
  err: string;
}

async function cli(argv: string[], io: { stdout?: (t: string) => void } = {}): Promise<Run> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: io.stdout ?? ((t) => (out += t)), stderr: (t) => (err += t), isStderrTty: false, cwd: dir });
  return { code, out, err };
}

/** A fresh copy of the example in its own folder; returns the folder and the input's path. */
function workspace(name: string): { folder: string; input: string; bytes: Buffer } {
  const folder = join(dir, name);
  mkdirSync(folder);
  const input = join(folder, 'in.jsonl');
  writeFileSync(input, readFileSync(EXAMPLE));
  return { folder, input, bytes: readFileSync(input) };
}

describe('outputs never alias the input (or each other)', () => {
  const cases: { name: string; args: (w: { folder: string; input: string }) => string[]; message: RegExp }[] = [
    {
      name: 'filter -o a symlink to the input',
      args: ({ folder, input }) => {
        symlinkSync(input, join(folder, 'link.jsonl'));
        return ['filter', input, '-o', join(folder, 'link.jsonl')];
      },
      message: /-o .*link\.jsonl is the same file as the input .*in\.jsonl \(through a symbolic link/,
    },
    { name: 'filter --decisions the input', args: ({ folder, input }) => ['filter', input, '-o', join(folder, 'k.jsonl'), '--decisions', input], message: /--decisions .* is the same file as the input/ },
    { name: 'filter -o = --decisions', args: ({ folder, input }) => ['filter', input, '-o', join(folder, 'k.jsonl'), '--decisions', join(folder, 'k.jsonl')], message: /--decisions .*k\.jsonl is the same file as -o/ },
    {
      name: 'filter -o a hard link to the input',
      args: ({ folder, input }) => {
        linkSync(input, join(folder, 'hard.jsonl'));
        return ['filter', input, '-o', join(folder, 'hard.jsonl')];
      },
      message: /is the same file as the input .* \(a hard link to it\)/,
    },
    { name: 'filter -o the input by another spelling', args: ({ folder, input }) => ['filter', input, '-o', join(folder, '.', 'in.jsonl')], message: /is the same file as the input/ },
    {
      name: 'score -o a symlink to the input',
      args: ({ folder, input }) => {
        symlinkSync('in.jsonl', join(folder, 'scored.jsonl'));
        return ['score', input, '-o', join(folder, 'scored.jsonl'), '--url', 'http://127.0.0.1:9'];
      },
      message: /-o .*scored\.jsonl is the same file as the input/,
    },
  ];
  for (const [i, c] of cases.entries()) {
    it(`${c.name}: exit 2, a message naming both, the input's bytes unchanged`, async () => {
      const w = workspace(`alias-${i}`);
      const result = await cli(c.args(w));
      expect(result.code).toBe(2);
      expect(result.err).toMatch(c.message);
      expect(readFileSync(w.input).equals(w.bytes)).toBe(true);
      expect(readdirSync(w.folder).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    });
  }

  it('distinct outputs are written, and the input is unchanged', async () => {
    const w = workspace('distinct');
    const result = await cli(['filter', w.input, '-o', join(w.folder, 'k.jsonl'), '--decisions', join(w.folder, 'd.jsonl')]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(w.folder, 'd.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(72);
    expect(readFileSync(w.input).equals(w.bytes)).toBe(true);
  });

  it('-o through a symlink to another file writes that file and keeps the link', async () => {
    const w = workspace('through-link');
    writeFileSync(join(w.folder, 'kept-real.jsonl'), 'old\n');
    symlinkSync('kept-real.jsonl', join(w.folder, 'kept.jsonl'));
    expect((await cli(['filter', w.input, '-o', join(w.folder, 'kept.jsonl')])).code).toBe(0);
    expect(readFileSync(join(w.folder, 'kept-real.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(36);
  });
});

describe('a failure half-way leaves old outputs as they were', () => {
  let server: FakeServer;
  beforeAll(async () => {
    // The first /pooling request is answered, the second is refused (401 is not retried).
    server = await startFakeServer({ onPooling: (call) => (call >= 2 ? { status: 401, body: { detail: 'bad key' } } : undefined) });
  });
  afterAll(() => server.close());

  it('filter: when --decisions cannot be written, -o keeps its old content too', async () => {
    const w = workspace('half-filter');
    writeFileSync(join(w.folder, 'k.jsonl'), 'previous kept\n');
    const result = await cli(['filter', w.input, '-o', join(w.folder, 'k.jsonl'), '--decisions', join(w.folder, 'missing', 'd.jsonl')]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/cannot read or write .*missing/);
    expect(readFileSync(join(w.folder, 'k.jsonl'), 'utf8')).toBe('previous kept\n');
    expect(readdirSync(w.folder).sort()).toEqual(['in.jsonl', 'k.jsonl']);
  });

  it('score: a server that fails after the first batch leaves the old output whole and no temporary file', async () => {
    const w = workspace('half-score');
    // Two batches of lines: the example file twice over.
    writeFileSync(w.input, Buffer.concat([w.bytes, w.bytes]));
    writeFileSync(join(w.folder, 'scored.jsonl'), 'previous scores\n');
    const result = await cli(['score', w.input, '-o', join(w.folder, 'scored.jsonl'), '--url', server.url, '--no-cache']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/HTTP 401 .*bad key/);
    expect(readFileSync(join(w.folder, 'scored.jsonl'), 'utf8')).toBe('previous scores\n');
    expect(readdirSync(w.folder).sort()).toEqual(['in.jsonl', 'scored.jsonl']);
  });
});

describe('errors are messages, never stack traces', () => {
  const noStack = (text: string): void => expect(text).not.toMatch(/\n\s+at .*[:(]\d+/);
  const notAModel = join(dir, 'not-a-model');
  const badManifest = join(dir, 'bad-manifest');
  beforeAll(() => {
    mkdirSync(notAModel);
    mkdirSync(badManifest);
    writeFileSync(join(badManifest, 'prof-lens.json'), '{"profile": ');
    writeFileSync(join(dir, 'cases.jsonl'), '{"pred": "1/2", "gold": "0.5"}\n');
  });
  const failing = (): never => {
    throw new Error('the terminal went away');
  };
  const cases: { command: string; argv: string[]; stdout?: (t: string) => void; message: RegExp }[] = [
    { command: 'report', argv: ['report', EXAMPLE, '--model', notAModel], message: /^prof-lens report: no model\.onnx in .*not-a-model\n$/ },
    { command: 'filter', argv: ['filter', EXAMPLE, '-o', join(dir, 'never.jsonl'), '--model', badManifest], message: /^prof-lens filter: .*bad-manifest.*\n$/ },
    { command: 'score', argv: ['score', EXAMPLE, '-o', join(dir, 'never.jsonl'), '--url', 'http://127.0.0.1:9', '--no-cache'], message: /^prof-lens score: cannot reach http:\/\/127\.0\.0\.1:9.*\n$/ },
    { command: 'grade', argv: ['grade', join(dir, 'cases.jsonl')], stdout: failing, message: /^prof-lens grade: the terminal went away\n$/ },
    { command: 'eval', argv: ['eval', join(ROOT, 'test/fixtures/processbench-gsm8k-sample.json'), '--model', notAModel], message: /^prof-lens eval: no model\.onnx in .*\n$/ },
    { command: 'doctor', argv: ['doctor'], stdout: failing, message: /^prof-lens doctor: the terminal went away\n$/ },
  ];
  for (const c of cases) {
    it(`${c.command}: exit 2 and one line saying what went wrong`, async () => {
      const result = await cli(c.argv, c.stdout ? { stdout: c.stdout } : {});
      expect(result.code).toBe(2);
      expect(result.err).toMatch(c.message);
      noStack(result.err);
    });
  }

  describe('the binary', () => {
    beforeAll(() => {
      if (!existsSync(join(ROOT, 'dist/cli.js'))) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT });
    });

    it('a symlink loop as input: a message, exit 2', () => {
      symlinkSync('loop', join(dir, 'loop'));
      const result = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'report', join(dir, 'loop')], { encoding: 'utf8' });
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^prof-lens report: ELOOP: too many symbolic links/);
      noStack(result.stderr);
    });

    it('output piped into a reader that leaves early (| head): quiet, exit 0', () => {
      const cases = join(dir, 'many-cases.jsonl');
      writeFileSync(cases, '{"pred": "1", "gold": "1"}\n'.repeat(20_000));
      const result = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${join(ROOT, 'dist/cli.js')}" grade "${cases}" | head -c 10 >/dev/null`], { encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    });

    it('output into a full pipe another program made non-blocking: every line arrives, exit 0', () => {
      const cases = join(dir, 'cases-for-a-slow-reader.jsonl');
      writeFileSync(cases, '{"pred": "1", "gold": "1"}\n'.repeat(6_000));
      // A Node child gets its stdout blocking (libuv makes inherited stdio so), but the descriptor is
      // shared: the parent opening its own piped stdout afterwards makes it non-blocking for both.
      // The reader waits until the output (90 KB, more than a pipe holds) is written: a write answers EAGAIN.
      const parent = join(dir, 'parent.js');
      writeFileSync(parent, `const child = require('node:child_process').spawn(process.execPath, ${JSON.stringify([join(ROOT, 'dist/cli.js'), 'grade', cases])}, { stdio: 'inherit' });
child.on('spawn', () => process.stdout.write(''));
child.on('exit', (code) => { process.exitCode = code; });`);
      const out = join(dir, 'slow-reader.txt');
      const result = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${parent}" | (sleep 2; cat) > "${out}"`], { encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe('{"equal":true}\n'.repeat(6_000));
    });

    it('PROF_LENS_DEBUG=1 shows the stack for a bug report', () => {
      const result = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'report', EXAMPLE, '--model', notAModel], { encoding: 'utf8', env: { ...process.env, PROF_LENS_DEBUG: '1' } });
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/\n\s+at /);
    });
  });
});
