import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function imports(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)].map((m) => m[1] ?? m[2] ?? '');
}

/**
 * Which floors a floor may import (the dependency direction of docs/architecture.md). A floor is
 * a top-level folder of src/, or webview/ (the panels' browser code, every folder of it).
 */
const ALLOWED: Record<string, string[]> = {
  core: ['core'],
  protocol: ['protocol', 'core'],
  scoring: ['scoring', 'protocol', 'core'],
  cli: ['cli', 'scoring', 'protocol', 'core'],
  vscode: ['vscode', 'scoring', 'protocol', 'core'],
  webview: ['webview', 'protocol', 'core'],
};

/** The floor a path lies on: `core` for src/core/…, `webview` for webview/…; null for anything else. */
function floorOf(path: string): string | null {
  const [top, second] = relative(ROOT, path).split(/[\\/]/);
  if (top === 'webview') return 'webview';
  return top === 'src' && second !== undefined && second in ALLOWED ? second : null;
}

/** Where a floor's files live. */
function floorDir(floor: string): string {
  return floor === 'webview' ? join(ROOT, 'webview') : join(ROOT, 'src', floor);
}

describe('dependency direction', () => {
  for (const [floor, allowed] of Object.entries(ALLOWED)) {
    it(`${relative(ROOT, floorDir(floor))} imports only ${allowed.map((f) => relative(ROOT, floorDir(f))).join(', ')}`, () => {
      const offending: string[] = [];
      for (const file of files(floorDir(floor))) {
        for (const spec of imports(file)) {
          if (spec === 'vscode' && floor !== 'vscode') offending.push(`${relative(ROOT, file)} imports vscode`);
          if (spec === 'onnxruntime-node' && ['core', 'protocol', 'webview'].includes(floor)) offending.push(`${relative(ROOT, file)} imports onnxruntime-node`);
          if (!spec.startsWith('.')) continue;
          const target = floorOf(join(file, '..', spec));
          if (target !== null && !allowed.includes(target)) offending.push(`${relative(ROOT, file)} imports ${spec}`);
        }
      }
      expect(offending).toEqual([]);
    });
  }

  it('the webview floor is every folder of webview/, not only its top level', () => {
    const folders = new Set(files(floorDir('webview')).map((f) => relative(ROOT, join(f, '..')).replace(/\\/g, '/')));
    expect([...folders]).toEqual(expect.arrayContaining(['webview', 'webview/run']));
  });

  it('core uses no Node-only module except where it must', () => {
    const nodeOnly = files(join(ROOT, 'src/core')).filter((f) => imports(f).some((s) => s.startsWith('node:') || s === 'fs' || s === 'path'));
    expect(nodeOnly.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
