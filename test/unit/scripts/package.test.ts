/**
 * `npm run package` for linux-x64, run as CI runs it, and the VSIX it writes read back: only this
 * platform's onnxruntime binaries, the bundles and what they load, nothing from the sources or
 * tests, and a size under the cap the README states.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listZipEntries, readZipEntry } from '../../../scripts/zip-entries.mjs';

const ROOT = join(__dirname, '../../..');
/** The cap the README states for the linux-x64 VSIX (it measured about 20 MiB). */
const SIZE_CAP_BYTES = 25 * 2 ** 20;
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const out = mkdtempSync(join(tmpdir(), 'prof-lens-package-'));
const vsix = join(out, `prof-lens-linux-x64-${version}.vsix`);
let names: string[] = [];
let packaged: { status: number | null; stdout: string; stderr: string };

beforeAll(() => {
  // Other test files read dist/ while they run, so it is built only when absent (npm test builds first).
  if (!existsSync(join(ROOT, 'dist/extension.js')) || !existsSync(join(ROOT, 'dist/webview.js'))) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT });
  packaged = spawnSync(process.execPath, [join(ROOT, 'scripts/package.mjs'), '--target', 'linux-x64', '--out', out, '--no-build'], { encoding: 'utf8', cwd: ROOT });
  if (packaged.status === 0) names = listZipEntries(vsix).map((e) => e.name);
}, 180_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

function shippedManifest(): Record<string, unknown> {
  return JSON.parse(readZipEntry(vsix, 'extension/package.json')?.toString('utf8') ?? '{}') as Record<string, unknown>;
}

describe('the linux-x64 VSIX', () => {
  it('is written, and its size is printed and recorded', () => {
    expect(packaged.stderr + packaged.stdout).not.toMatch(/^package: /m);
    expect(packaged.status).toBe(0);
    expect(packaged.stdout).toMatch(/^linux-x64: \S+\.vsix \d+\.\d MiB, \d+ files$/m);
    const sizes = JSON.parse(readFileSync(join(out, 'sizes.json'), 'utf8')) as Record<string, { bytes: number }>;
    expect(sizes['linux-x64']?.bytes).toBeGreaterThan(0);
  });

  it('carries onnxruntime for linux-x64 only', () => {
    const binaries = names.filter((n) => n.includes('/onnxruntime-node/bin/'));
    expect(binaries.sort()).toEqual([
      'extension/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1',
      'extension/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node',
    ]);
    expect(names.filter((n) => /win32|darwin|arm64|\.dll$|\.dylib$/.test(n))).toEqual([]);
    expect(readZipEntry(vsix, 'extension.vsixmanifest')?.toString('utf8')).toContain('TargetPlatform="linux-x64"');
  });

  it('holds the bundles and what they load at run time, and no sources, tests, maps or dev tooling', () => {
    for (const file of ['extension.js', 'analysisWorker.js', 'casWorker.js', 'onnxWorker.js', 'tokenizerWorker.js', 'traceDecoderWorker.js', 'webview.js', 'runWebview.js', 'explorerWebview.js', 'compareWebview.js', 'rulesWebview.js', 'katex.js', 'runWorker.js', 'computeEngine.mjs']) expect(names).toContain(`extension/dist/${file}`);
    expect(names).toContain('extension/node_modules/onnxruntime-node/dist/index.js');
    expect(names).toContain('extension/node_modules/onnxruntime-common/dist/cjs/index.js');
    expect(names).toContain('extension/node_modules/katex/dist/katex.min.css');
    expect(names.filter((n) => n.startsWith('extension/node_modules/katex/dist/fonts/')).length).toBe(20);
    expect(names).toContain('extension/examples/gsm-rollouts.jsonl');
    expect(names.filter((n) => /^extension\/(src|test|webview|test-output|out|bin|\.ci)\//.test(n))).toEqual([]);
    expect(names.filter((n) => /\.(ts|map|mts)$|\/dist\/(cli|bench)\.js$|package-lock\.json$|tsconfig/.test(n))).toEqual([]);
    const manifest = shippedManifest();
    expect(manifest).not.toHaveProperty('devDependencies');
    expect(manifest).not.toHaveProperty('scripts');
    expect(manifest.extensionKind).toEqual(['workspace']);
  });

  it('ships every file the manifest and the README point to', () => {
    const manifest = shippedManifest() as { icon: string; contributes: { walkthroughs: { steps: { media: { markdown: string } }[] }[] } };
    const wanted = [manifest.icon, ...manifest.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.markdown))];
    const readme = readZipEntry(vsix, 'extension/readme.md')?.toString('utf8') ?? '';
    // Relative links and images resolve inside the installed extension (no repository is published).
    for (const [, target] of readme.matchAll(/\]\((?!https?:|#)([^)#\s]+)/g)) wanted.push(target ?? '');
    for (const page of manifest.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.markdown))) {
      const text = readZipEntry(vsix, `extension/${page}`)?.toString('utf8') ?? '';
      const folder = page.slice(0, page.lastIndexOf('/') + 1);
      for (const [, image] of text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)) wanted.push(`${folder}${image ?? ''}`);
    }
    for (const path of wanted) expect(names, path).toContain(`extension/${path}`);
  });

  it(`is smaller than ${SIZE_CAP_BYTES / 2 ** 20} MiB`, () => {
    expect(readFileSync(vsix).length).toBeLessThan(SIZE_CAP_BYTES);
  });
});
