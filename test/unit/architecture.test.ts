import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** The repository files a file's relative imports name (type-only imports included). */
function importedFiles(file: string): string[] {
  return imports(file).filter((s) => s.startsWith('.')).flatMap((spec) => {
    const base = join(file, '..', spec).replace(/\.js$/, '');
    const found = [`${base}.ts`, `${base}.mts`, join(base, 'index.ts')].find((p) => existsSync(p));
    return found === undefined ? [] : [found];
  });
}

/** Every import circle among `paths`: the strongly connected groups of more than one file (Tarjan). */
function importCircles(paths: readonly string[]): string[][] {
  const graph = new Map(paths.map((p) => [p, importedFiles(p)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const circle: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
      onStack.delete(w);
      circle.push(relative(ROOT, w));
    }
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

describe('the house plan', () => {
  it('no import circle in src/ or webview/, type-only imports included', () => {
    expect(importCircles([...files(join(ROOT, 'src')), ...files(join(ROOT, 'webview'))])).toEqual([]);
  });

  it('the circle check finds a circle', () => {
    const dir = mkdtempSync(join(tmpdir(), 'circle-'));
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b';\nexport type A = B;\n");
    writeFileSync(join(dir, 'b.ts'), "import { a } from './a';\nexport type B = typeof a;\n");
    try {
      expect(importCircles([join(dir, 'a.ts'), join(dir, 'b.ts')]).map((c) => c.length)).toEqual([2]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('src/scoring holds a folder per subsystem and no loose file', () => {
    const loose = readdirSync(join(ROOT, 'src/scoring')).filter((name) => !statSync(join(ROOT, 'src/scoring', name)).isDirectory());
    expect(loose).toEqual([]);
  });

  it('file names in src/, webview/ and test/ are camelCase, never kebab-case', () => {
    const kebab = [...files(join(ROOT, 'src')), ...files(join(ROOT, 'webview')), ...files(join(ROOT, 'test'))]
      .map((f) => relative(ROOT, f)).filter((f) => /-/.test(f.split(/[\\/]/).pop() ?? '') && !f.includes('fixtures') && !f.includes('checkerBefore'));
    expect(kebab).toEqual([]);
  });
});
