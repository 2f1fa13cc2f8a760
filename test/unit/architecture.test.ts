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

/** The folder of src/core a file lies in: its first folder, or `(root)` for a file at the root. */
function coreFolder(path: string): string {
  const parts = relative(join(ROOT, 'src/core'), path).split(/[\\/]/);
  return parts.length === 1 ? '(root)' : parts[0]!;
}

/** Folder → folder edges of src/core (type-only imports included), each with one import behind it. */
function coreFolderEdges(): Map<string, string> {
  const core = join(ROOT, 'src/core');
  const edges = new Map<string, string>();
  for (const file of files(core)) {
    for (const target of importedFiles(file)) {
      if (!target.startsWith(core)) continue;
      const from = coreFolder(file);
      const to = coreFolder(target);
      if (from !== to && !edges.has(`${from} -> ${to}`)) edges.set(`${from} -> ${to}`, `${relative(core, file)} imports ${relative(core, target)}`);
    }
  }
  return edges;
}

/** The folder circles left in a graph of `a -> b` edges: its strongly connected groups of more than one folder. */
function folderCircles(edges: Iterable<string>): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const [from, to] = edge.split(' -> ') as [string, string];
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const circle = stack.splice(stack.indexOf(v));
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return circles;
}

/**
 * The folder edges of src/core that run against the pipeline's order today, each with why. Without
 * them the folders form no circle; a new edge that closes one fails the test, and an edge listed
 * here that is gone must leave the list.
 */
const KNOWN_FOLDER_EDGES: Record<string, string> = {
  '(root) -> answer': 'model.ts names the answer format a prompt asks for (answer/askedFormat.ts) in a rollout',
  '(root) -> transcript': "model.ts names a rollout's prompt reading and turns (transcript/promptReading.ts, turns.ts)",
  '(root) -> steps': "profSettings.ts checks a split pattern with the splitter's own compiler (steps/splitSteps.ts)",
  '(root) -> presentation': 'profSettings.ts quotes a bad value capped, with presentation/capText.ts',
  'table -> rules': "the table holds false-positive verdicts in the shape rules/groups.ts declares, as rules/falsePositiveMask.ts's bits",
  'presentation -> rules': "the evidence and penalty words read rules/groups.ts's verdicts and PROF's math (rules/profMath.ts)",
  'presentation -> report': 'the summary and tie words read the analysed file (report/fileAnalysis.ts)',
};

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

  it('the folders of src/core form no import circle, but for the edges listed with their reason', () => {
    const edges = coreFolderEdges();
    const circles = folderCircles([...edges.keys()].filter((edge) => !(edge in KNOWN_FOLDER_EDGES)));
    expect(circles.map((circle) => `${circle.join(', ')}: ${[...edges].filter(([e]) => circle.includes(e.split(' -> ')[0]!) && circle.includes(e.split(' -> ')[1]!)).map(([e, why]) => `${e} (${why})`).join('; ')}`)).toEqual([]);
    expect(Object.keys(KNOWN_FOLDER_EDGES).filter((edge) => !edges.has(edge))).toEqual([]);
  });

  it('the folder circle check finds a circle of three folders', () => {
    expect(folderCircles(['read -> formats', 'formats -> steps', 'steps -> read', 'steps -> rules'])).toEqual([['formats', 'read', 'steps']]);
    expect(folderCircles(['read -> formats', 'formats -> steps'])).toEqual([]);
  });

  it('src/core holds at most six files at its root: the rest lives in a folder per stage', () => {
    const loose = readdirSync(join(ROOT, 'src/core')).filter((name) => !statSync(join(ROOT, 'src/core', name)).isDirectory());
    expect(loose.length, loose.join(', ')).toBeLessThanOrEqual(6);
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
