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

/** Which top-level folders of src/ a folder may import (STYLE.md's dependency direction). */
const ALLOWED: Record<string, string[]> = {
  core: ['core'],
  protocol: ['protocol', 'core'],
  scoring: ['scoring', 'protocol', 'core'],
  cli: ['cli', 'scoring', 'protocol', 'core'],
  vscode: ['vscode', 'scoring', 'protocol', 'core'],
};

describe('dependency direction', () => {
  for (const [folder, allowed] of Object.entries(ALLOWED)) {
    it(`src/${folder} imports only ${allowed.join(', ')}`, () => {
      const dir = join(ROOT, 'src', folder);
      const offending: string[] = [];
      for (const file of files(dir)) {
        for (const spec of imports(file)) {
          if (spec === 'vscode' && folder !== 'vscode') offending.push(`${relative(ROOT, file)} imports vscode`);
          if (spec === 'onnxruntime-node' && (folder === 'core' || folder === 'protocol')) offending.push(`${relative(ROOT, file)} imports onnxruntime-node`);
          if (!spec.startsWith('.')) continue;
          const target = relative(join(ROOT, 'src'), join(file, '..', spec)).split(/[\\/]/)[0]!;
          if (target in ALLOWED && !allowed.includes(target)) offending.push(`${relative(ROOT, file)} imports ${spec}`);
        }
      }
      expect(offending).toEqual([]);
    });
  }

  it('core uses no Node-only module except where it must', () => {
    const nodeOnly = files(join(ROOT, 'src/core')).filter((f) => imports(f).some((s) => s.startsWith('node:') || s === 'fs' || s === 'path'));
    expect(nodeOnly.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
