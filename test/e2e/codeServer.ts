/**
 * Starts and stops code-server (a real VS Code served to a browser) with a throwaway profile and
 * the built extension installed by copying. Builds nothing: `npm run build` must have run.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in test/e2e). */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

const cacheDir = process.env['PROF_LENS_E2E_CACHE'] ?? join(homedir(), '.cache', 'prof-lens-e2e');
const codeServerBin = join(cacheDir, 'node_modules', '.bin', 'code-server');

/** Every file under a folder (none when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** What a caller controls about the VS Code it gets. */
export interface CodeServerOptions {
  /** Files to create in the workspace folder, by relative path (bytes for binary files such as parquet). */
  workspaceFiles?: Record<string, string | Buffer>;
  /** Extra user settings merged over the defaults that keep dialogs out of the way. */
  userSettings?: Record<string, unknown>;
  /** Extra environment for code-server and so for the extension host. */
  env?: Record<string, string>;
  /** Install this VSIX with `code-server --install-extension` instead of copying the built folder. */
  vsix?: string;
}

/** A running code-server and the folders it owns. */
export interface CodeServer {
  url: string;
  workspace: string;
  root: string;
  /** Everything code-server printed, for failure messages. */
  log: () => string;
  stop: () => Promise<void>;
}

const baseSettings = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  // The web workbench asks before opening files over 10 MB; the large-dump test opens 40 MB.
  'workbench.editorLargeFileConfirmation': 1024,
  'workbench.tips.enabled': false,
  // The server's search for ports to forward (on while a tunnel provider exists, unless its source
  // is the terminal output) lists /proc and spawns `ls` and `ps` every few seconds on the extension
  // host's thread, 80–120 ms a spawn on a busy 2-core machine: noise in the large-dump test's
  // stall figure that is none of PROF Lens's doing.
  'remote.autoForwardPorts': false,
  'remote.autoForwardPortsSource': 'output',
  'workbench.enableExperiments': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  'window.commandCenter': false,
  'chat.commandCenter.enabled': false,
  'workbench.layoutControl.enabled': false,
};

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

function installExtension(extensionsDir: string): void {
  const target = join(extensionsDir, 'prof-lens.prof-lens-0.1.0');
  mkdirSync(target, { recursive: true });
  if (!existsSync(join(repoRoot, 'dist', 'extension.js'))) {
    throw new Error('dist/extension.js is missing: run `npm run build` first');
  }
  cpSync(join(repoRoot, 'package.json'), join(target, 'package.json'));
  cpSync(join(repoRoot, 'dist'), join(target, 'dist'), { recursive: true });
  if (existsSync(join(repoRoot, 'media'))) {
    cpSync(join(repoRoot, 'media'), join(target, 'media'), { recursive: true });
  }
  // Native modules stay external to the bundle; a link avoids copying hundreds of megabytes.
  symlinkSync(join(repoRoot, 'node_modules'), join(target, 'node_modules'), 'dir');
}

/** Installs a packaged extension the way a user would, into the throwaway profile. */
function installVsix(vsix: string, root: string): void {
  const args = ['--user-data-dir', join(root, 'ud'), '--extensions-dir', join(root, 'ext'), '--install-extension', vsix];
  execFileSync(codeServerBin, args, { stdio: 'pipe', timeout: 120_000 });
}

function prepareFolders(options: CodeServerOptions): { root: string; workspace: string } {
  const root = mkdtempSync(join(tmpdir(), 'prof-lens-e2e-'));
  const workspace = join(root, 'workspace');
  const userDir = join(root, 'ud', 'User');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(userDir, { recursive: true });
  writeFileSync(
    join(userDir, 'settings.json'),
    JSON.stringify({ ...baseSettings, ...options.userSettings }, null, 2),
  );
  for (const [name, content] of Object.entries(options.workspaceFiles ?? {})) {
    const path = join(workspace, name);
    mkdirSync(resolve(path, '..'), { recursive: true });
    writeFileSync(path, content);
  }
  if (options.vsix) installVsix(options.vsix, root);
  else installExtension(join(root, 'ext'));
  return { root, workspace };
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer on ${url} within ${timeoutMs} ms`);
}

/** Kills a process group we started, politely first. */
async function killGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timedOut = await Promise.race([
    exited.then(() => false),
    new Promise<boolean>((r) => setTimeout(() => r(true), 5_000)),
  ]);
  if (timedOut) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Starts code-server on a free loopback port with a fresh profile and the extension installed. */
export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  if (!existsSync(codeServerBin)) {
    throw new Error(`code-server not found at ${codeServerBin}: run scripts/setup-e2e.sh`);
  }
  const { root, workspace } = prepareFolders(options);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [
    '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry',
    '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--user-data-dir', join(root, 'ud'), '--extensions-dir', join(root, 'ext'), workspace,
  ];
  const child = spawn(codeServerBin, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // A cache folder of its own: calibrations the machine's user stored must not change what a test sees.
    env: { ...process.env, PROF_LENS_CACHE_DIR: join(root, 'prof-lens-cache'), ...options.env },
  });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  // If the test process dies without running its hooks, code-server must not outlive it.
  const killOnExit = (): void => {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  process.once('exit', killOnExit);
  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit);
    await killGroup(child);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, child, 60_000);
  } catch (error) {
    await stop();
    throw new Error(`${String(error)}\n${output}`);
  }
  return { url, workspace, root, log: () => output, stop };
}
