/**
 * The command line's entry (bundled to `dist/cli.js`): loads the commands' bundle
 * (`dist/cliMain.js`) through V8's code cache, so that a command does not parse and compile the
 * same megabyte of code at every start. The cache is the bundle's compiled code as a run left it,
 * written once (when missing or refused) to a folder of the user's own in the system's temporary
 * folder, as Node's own compile cache does (Node 22's `module.enableCompileCache`; this Node may be
 * 20). It is named by the bundle's path, size and time, the Node version (a new build's caches
 * replace the old one's) and the command (each command's holds the code that command runs), and V8 refuses
 * data that does not fit the source; then the bundle compiles as usual and the cache is written again.
 * `PROF_LENS_CODE_CACHE=0`, or a folder that is not the user's: no cache. The bundle holds no
 * `import()` (esbuild turns it into `require`): code run from a cache could not serve one.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vm from 'node:vm';
import type * as Cli from './main';

type CliBundle = typeof Cli;

const BUNDLE = join(__dirname, 'cliMain.js');

function load(): CliBundle {
  const folder = process.env.PROF_LENS_CODE_CACHE !== '0' ? cacheFolder() : null;
  const bundleRequire = createRequire(BUNDLE);
  if (!folder) return bundleRequire(BUNDLE) as CliBundle;
  const source = readFileSync(BUNDLE, 'utf8');
  const info = statSync(BUNDLE);
  const build = `${cachePrefix()}${info.size}-${Math.floor(info.mtimeMs)}-${process.version}-${process.arch}-`;
  const cachePath = join(folder, `${build}${commandWord()}.bin`);
  let cached: Buffer | undefined;
  try {
    cached = readFileSync(cachePath);
  } catch {
    cached = undefined;
  }
  const wrapper = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  const script = new vm.Script(wrapper, { filename: BUNDLE, ...(cached ? { cachedData: cached } : {}) });
  const bundle = { exports: {} as CliBundle };
  (script.runInThisContext() as (...args: unknown[]) => void).call(bundle.exports, bundle.exports, bundleRequire, bundle, BUNDLE, dirname(BUNDLE));
  if (!cached || script.cachedDataRejected) process.once('exit', () => save(cachePath, build, script));
  return bundle.exports;
}

/** `<tmp>/prof-lens-code-cache-<uid>`, made private; null when it is not this user's or cannot be made. */
function cacheFolder(): string | null {
  const uid = process.getuid?.();
  const folder = join(tmpdir(), `prof-lens-code-cache${uid === undefined ? '' : `-${uid}`}`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const info = statSync(folder);
    if (!info.isDirectory() || (uid !== undefined && (info.uid !== uid || (info.mode & 0o022) !== 0))) return null;
    return folder;
  } catch {
    return null;
  }
}

/** `cli-<FNV-1a of the bundle's path>-`: each install's bundle has caches of its own. */
function cachePrefix(): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < BUNDLE.length; i++) hash = Math.imul(hash ^ BUNDLE.charCodeAt(i), 0x01000193) >>> 0;
  return `cli-${hash.toString(16)}-`;
}

/**
 * The command this run is for, as its cache is named: each command's cache holds the code that
 * command compiled (a cache made by `--help` would leave `report` to compile its own every time).
 */
function commandWord(): string {
  const word = process.argv[2] ?? '';
  return /^[a-z]{1,16}$/.test(word) ? word : 'other';
}

/** The code compiled so far (the functions this run used), written whole or not at all. */
function save(cachePath: string, build: string, script: vm.Script): void {
  try {
    const part = `${cachePath}.${process.pid}`;
    writeFileSync(part, script.createCachedData(), { mode: 0o600 });
    renameSync(part, cachePath);
    // The caches of earlier builds of this same bundle are of no more use (other installs keep theirs).
    const prefix = cachePrefix();
    for (const name of readdirSync(dirname(cachePath))) {
      if (name.startsWith(prefix) && name.endsWith('.bin') && !name.startsWith(build)) rmSync(join(dirname(cachePath), name), { force: true });
    }
  } catch {
    // A cache that cannot be written costs the next start its compile time, nothing else.
  }
}

const cli = load();

export const main = cli.main;
export const runCli = cli.runCli;
export const errorMessage = cli.errorMessage;

if (require.main === module) main();
