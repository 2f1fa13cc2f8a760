#!/usr/bin/env node
// `npm run package`: one VSIX per platform, each with only its own onnxruntime-node binaries.
//
// vsce does not prune native binaries per target, so each target gets a clean staging folder that
// holds only what the extension loads at run time: the bundles in dist/ (the CLI and the source
// maps stay out), media/, the example, the docs, KaTeX's stylesheet and fonts (the panel loads them
// from node_modules/katex/dist), and the two packages the bundles leave external, onnxruntime-node
// with this target's binary folder and onnxruntime-common. vsce then packs that folder.
//
// Usage: node scripts/package.mjs [--target linux-x64,win32-x64] [--out DIR] [--no-build]
//   --target   comma-separated; default all of linux-x64, linux-arm64, win32-x64, darwin-arm64
//   --out      where the VSIX files and sizes.json go (default out/vsix)
//   --no-build use dist/ as it is instead of running esbuild first
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listZipEntries } from './zip-entries.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** VS Code target → onnxruntime-node's bin/napi-v6/<platform>/<arch> folder. */
export const TARGETS = {
  'linux-x64': 'linux/x64',
  'linux-arm64': 'linux/arm64',
  'win32-x64': 'win32/x64',
  'darwin-arm64': 'darwin/arm64',
};

const BUNDLES = ['extension.js', 'analysisWorker.js', 'casWorker.js', 'onnxWorker.js', 'tokenizerWorker.js', 'traceDecoderWorker.js', 'webview.js', 'runWebview.js', 'explorerWebview.js', 'compareWebview.js', 'rulesWebview.js', 'katex.js', 'runWorker.js', 'computeEngine.mjs'];
const TOP_FILES = ['README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore'];
const SHIPPED_FOLDERS = ['media', 'docs'];
const SHIPPED_FILES = ['examples/gsm-rollouts.jsonl', 'scripts/README.md', 'scripts/export_qwen_prm.py', 'scripts/qwen_prm_check.py'];
/** Packages the bundles require at run time (esbuild leaves them external) or load files from. */
const RUNTIME_PACKAGES = ['onnxruntime-node', 'katex'];

function parseArgs(argv) {
  const options = { targets: Object.keys(TARGETS), outDir: join(root, 'out', 'vsix'), shouldBuild: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--target') options.targets = (argv[++i] ?? '').split(',').map((t) => t.trim()).filter(Boolean);
    else if (arg === '--out') options.outDir = resolve(argv[++i] ?? '');
    else if (arg === '--no-build') options.shouldBuild = false;
    else throw new Error(`unknown argument ${arg}; usage: package.mjs [--target t1,t2] [--out DIR] [--no-build]`);
  }
  const unknown = options.targets.filter((t) => !(t in TARGETS));
  if (unknown.length > 0 || options.targets.length === 0) {
    throw new Error(`unknown target ${unknown.join(', ') || '(none)'}; choose from ${Object.keys(TARGETS).join(', ')}`);
  }
  return options;
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function writeJson(path, value) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** The extension's manifest as shipped: no scripts, no dev tooling, only the external packages. */
function shippedManifest() {
  const manifest = readJson(join(root, 'package.json'));
  const versions = manifest.dependencies ?? {};
  delete manifest.scripts;
  delete manifest.devDependencies;
  delete manifest.bin;
  manifest.dependencies = Object.fromEntries(RUNTIME_PACKAGES.map((name) => [name, versions[name]]));
  return manifest;
}

/**
 * A third-party manifest as shipped. Their `dependencies` serve only their own install scripts or
 * command-line tools (onnxruntime-node's downloader, KaTeX's CLI), which are not shipped; vsce's
 * dependency listing would otherwise fail on them.
 */
function copyPackageManifest(from, to) {
  const manifest = readJson(join(from, 'package.json'));
  for (const key of ['dependencies', 'devDependencies', 'scripts']) delete manifest[key];
  writeJson(join(to, 'package.json'), manifest);
}

function copyMatching(fromDir, toDir, keep) {
  mkdirSync(toDir, { recursive: true });
  for (const name of readdirSync(fromDir)) {
    const from = join(fromDir, name);
    if (statSync(from).isFile() && keep(name)) cpSync(from, join(toDir, name));
  }
}

function stageOnnxRuntime(stage, target) {
  const ortFrom = join(root, 'node_modules', 'onnxruntime-node');
  const ortTo = join(stage, 'node_modules', 'onnxruntime-node');
  copyPackageManifest(ortFrom, ortTo);
  copyMatching(join(ortFrom, 'dist'), join(ortTo, 'dist'), (name) => name.endsWith('.js'));
  const bin = join('bin', 'napi-v6', TARGETS[target]);
  // macOS: the binding loads @rpath/libonnxruntime.1.dylib; npm ships the versioned name as a
  // second byte-identical copy (the symlink flattened), which would add 44 MB for nothing.
  copyMatching(join(ortFrom, bin), join(ortTo, bin), (name) => !/^libonnxruntime\.\d+\.\d+\.\d+\.dylib$/.test(name));
  const commonFrom = join(root, 'node_modules', 'onnxruntime-common');
  const commonTo = join(stage, 'node_modules', 'onnxruntime-common');
  copyPackageManifest(commonFrom, commonTo);
  // The CommonJS build is what `require` resolves; its package.json marks the folder as CommonJS.
  copyMatching(join(commonFrom, 'dist', 'cjs'), join(commonTo, 'dist', 'cjs'), (name) => name.endsWith('.js') || name === 'package.json');
}

function stageKatex(stage) {
  const from = join(root, 'node_modules', 'katex');
  const to = join(stage, 'node_modules', 'katex');
  copyPackageManifest(from, to);
  cpSync(join(from, 'LICENSE'), join(to, 'LICENSE'));
  copyMatching(join(from, 'dist'), join(to, 'dist'), (name) => name === 'katex.min.css');
  // Every browser engine VS Code runs in reads woff2, the first format the stylesheet offers.
  copyMatching(join(from, 'dist', 'fonts'), join(to, 'dist', 'fonts'), (name) => name.endsWith('.woff2'));
}

/** Fills a fresh folder with exactly what the target's VSIX ships. */
function stage(target) {
  const dir = mkdtempSync(join(tmpdir(), `prof-lens-vsix-${target}-`));
  writeJson(join(dir, 'package.json'), shippedManifest());
  for (const name of TOP_FILES) cpSync(join(root, name), join(dir, name));
  for (const name of BUNDLES) cpSync(join(root, 'dist', name), join(dir, 'dist', name));
  for (const name of SHIPPED_FOLDERS) cpSync(join(root, name), join(dir, name), { recursive: true });
  for (const name of SHIPPED_FILES) cpSync(join(root, name), join(dir, name));
  stageOnnxRuntime(dir, target);
  stageKatex(dir);
  return dir;
}

/** What must not be in a target's VSIX: another platform's binaries, sources, tests, source maps. */
export function foreignEntries(names, target) {
  const own = `extension/node_modules/onnxruntime-node/bin/napi-v6/${TARGETS[target]}/`;
  return names.filter((name) =>
    (name.includes('/onnxruntime-node/bin/') && !name.startsWith(own)) ||
    /^extension\/(src|test|webview|test-output|out)\//.test(name) ||
    /\.(ts|map)$/.test(name) ||
    name === 'extension/dist/cli.js');
}

function runVsce(stageDir, target, vsixPath) {
  const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  // No repository is published yet, so README links stay relative: they resolve inside the
  // installed extension, which ships the files they point to.
  execFileSync(process.execPath, [
    vsce, 'package', '--target', target, '--out', vsixPath,
    '--allow-missing-repository', '--no-rewrite-relative-links',
  ], { cwd: stageDir, stdio: ['ignore', 'inherit', 'inherit'] });
}

function packageTarget(target, outDir, version) {
  const stageDir = stage(target);
  try {
    const vsixPath = join(outDir, `prof-lens-${target}-${version}.vsix`);
    runVsce(stageDir, target, vsixPath);
    const names = listZipEntries(vsixPath).map((e) => e.name);
    const foreign = foreignEntries(names, target);
    if (foreign.length > 0) throw new Error(`${vsixPath} holds files it must not:\n  ${foreign.join('\n  ')}`);
    return { target, file: vsixPath, bytes: statSync(vsixPath).size, entries: names.length };
  } finally {
    rmSync(stageDir, { recursive: true, force: true });
  }
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.shouldBuild) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
  const missing = BUNDLES.filter((name) => !existsSync(join(root, 'dist', name)));
  if (missing.length > 0) throw new Error(`dist/ lacks ${missing.join(', ')}: run without --no-build`);
  mkdirSync(options.outDir, { recursive: true });
  const version = readJson(join(root, 'package.json')).version;
  const sizesPath = join(options.outDir, 'sizes.json');
  const sizes = existsSync(sizesPath) ? readJson(sizesPath) : {};
  for (const target of options.targets) {
    const result = packageTarget(target, options.outDir, version);
    sizes[target] = { file: basename(result.file), bytes: result.bytes, entries: result.entries };
    console.log(`${target}: ${result.file} ${(result.bytes / 2 ** 20).toFixed(1)} MiB, ${result.entries} files`);
  }
  writeJson(sizesPath, sizes);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error(`package: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
