// One build for every bundle: the CLI and the extension (Node, CommonJS), the scoring worker,
// and the webview (browser). Native and VS Code modules stay external.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';

const isWatch = process.argv.includes('--watch');
const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  external: ['vscode', 'onnxruntime-node'],
  logLevel: 'warning',
};
const entries = [
  { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js' },
  { ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' },
  { ...node, entryPoints: ['src/scoring/onnx/worker.ts'], outfile: 'dist/onnxWorker.js' },
  { ...node, entryPoints: ['src/scoring/analysisWorker.ts'], outfile: 'dist/analysisWorker.js' },
  { ...node, entryPoints: ['src/scoring/cas/casWorker.ts'], outfile: 'dist/casWorker.js' },
  {
    bundle: true, platform: 'browser', format: 'esm', target: 'es2022', sourcemap: true,
    entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', logLevel: 'warning',
  },
].filter((e) => existsSync(e.entryPoints[0]));

if (isWatch) {
  for (const e of entries) await (await esbuild.context(e)).watch();
} else {
  await Promise.all(entries.map((e) => esbuild.build(e)));
}
