import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '../../..');
const WEBVIEW = join(ROOT, 'webview');

/** Every TypeScript file under `dir`, in every folder (webview/run/ and whatever comes next). */
function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const sources = tsFiles(WEBVIEW);

function imports(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)].map((m) => m[1] ?? m[2] ?? '');
}

describe('the webview code', () => {
  it('is read in every folder, the Run Dashboard\'s included', () => {
    const folders = new Set(sources.map((f) => relative(ROOT, join(f, '..')).replace(/\\/g, '/')));
    expect([...folders]).toEqual(expect.arrayContaining(['webview', 'webview/run']));
  });

  it('imports only itself, src/protocol, src/core, KaTeX and the toolkit', () => {
    const offending: string[] = [];
    for (const file of sources) {
      for (const spec of imports(file)) {
        if (!spec.startsWith('.')) {
          if (spec !== 'katex' && spec !== '@vscode/webview-ui-toolkit') offending.push(`${relative(ROOT, file)} imports ${spec}`);
          continue;
        }
        const target = relative(ROOT, resolve(file, '..', spec));
        if (!/^(webview|src[\\/]protocol|src[\\/]core)[\\/]/.test(target)) offending.push(`${relative(ROOT, file)} imports ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('never parses HTML: rollout text must only ever become text nodes', () => {
    const parsing = /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser|renderToString|\beval\(|new Function\(/;
    const offending = sources.filter((file) => parsing.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));
    expect(offending).toEqual([]);
  });

  it('typesets with KaTeX only with trust off and errors shown, not thrown', () => {
    const math = readFileSync(join(WEBVIEW, 'math.ts'), 'utf8');
    expect(math).toMatch(/trust: false/);
    expect(math).toMatch(/throwOnError: false/);
    expect(math).toMatch(/maxExpand: \d+/);
  });
});
