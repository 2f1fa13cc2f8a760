// One build for every bundle: the CLI and the extension (Node, CommonJS), the scoring worker,
// and the webviews (browser). Native and VS Code modules stay external.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';
import { writeCatalog } from './scripts/gen-catalog.mjs';

const isWatch = process.argv.includes('--watch');
// A rule or a trainer format is one file in its catalog folder; what lists them is written first.
const written = await writeCatalog();
if (written.length) console.log(`gen:catalog wrote ${written.join(', ')}`);
const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  external: ['vscode', 'onnxruntime-node'],
  logLevel: 'warning',
};
// The CLI, the CAS worker and the trend workers load the computer algebra system (5 MB of code)
// only when an answer must be graded or a claim checked: it is its own ES module beside them,
// imported on first use, so a command or worker that reads file outcomes starts small and stays
// small, and the VSIX carries the engine once instead of once per bundle.
const casApart = {
  name: 'cas-apart',
  setup(build) {
    build.onResolve({ filter: /^@cortex-js\/compute-engine$/ }, () => ({ path: './computeEngine.mjs', external: true }));
  },
};
// The CLI's commands bundle leaves out the libraries only some commands use (RE2 for `regex:` splits
// and searches, the parquet reader, the tokenizer of token-id traces: half its code): each is a
// bundle of its own beside it, required on first use, so every command starts without reading them.
const VENDORED = { re2js: 're2js', hyparquet: 'hyparquet', '@huggingface/tokenizers': 'tokenizers' };
const vendorApart = {
  name: 'vendor-apart',
  setup(build) {
    build.onResolve({ filter: /^(re2js|hyparquet|@huggingface\/tokenizers)$/ }, (args) => ({ path: `./vendor/${VENDORED[args.path]}.js`, external: true }));
  },
};
const vendorBundles = Object.entries(VENDORED).map(([pkg, name]) => ({
  ...node, sourcemap: false, stdin: { contents: `module.exports = require(${JSON.stringify(pkg)});`, resolveDir: '.', loader: 'js' }, outfile: `dist/vendor/${name}.js`,
}));
// The panels' scripts, minified: a webview parses its whole script before it can say `ready`.
const browser = { bundle: true, platform: 'browser', format: 'esm', target: 'es2022', sourcemap: true, minify: true, logLevel: 'warning' };
// KaTeX is more than half of the group view's script and most panels typeset nothing: it is a
// module of its own beside the panels' script, imported the first time a formula is typeset.
const katexApart = {
  name: 'katex-apart',
  setup(build) {
    build.onResolve({ filter: /^katex$/ }, () => ({ path: './katex.js', external: true }));
  },
};
const entries = [
  // dist/cli.js only loads dist/cliMain.js (the commands) through V8's code cache: see src/cli/entry.ts.
  { ...node, entryPoints: ['src/cli/entry.ts'], outfile: 'dist/cli.js' },
  // No `import()` left in it (onnxruntime-node is required instead): code run from V8's cache cannot serve one.
  { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cliMain.js', plugins: [casApart, vendorApart], supported: { 'dynamic-import': false } },
  { ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' },
  { ...node, entryPoints: ['src/scoring/scorers/onnx/onnxWorker.ts'], outfile: 'dist/onnxWorker.js' },
  { ...node, entryPoints: ['src/scoring/scorers/profiles/tokenizerWorker.ts'], outfile: 'dist/tokenizerWorker.js' },
  { ...node, entryPoints: ['src/scoring/inputs/traceDecoderWorker.ts'], outfile: 'dist/traceDecoderWorker.js' },
  { ...node, entryPoints: ['src/scoring/analysis/analysisWorker.ts'], outfile: 'dist/analysisWorker.js' },
  { ...node, entryPoints: ['src/scoring/cas/casWorker.ts'], outfile: 'dist/casWorker.js', plugins: [casApart] },
  { ...node, entryPoints: ['src/scoring/scorers/checker/checkerWorker.ts'], outfile: 'dist/checkerWorker.js' },
  { ...node, entryPoints: ['src/scoring/run/runWorker.ts'], outfile: 'dist/runWorker.js', plugins: [casApart] },
  { ...node, entryPoints: ['src/scoring/explore/runExplorerWorker.ts'], outfile: 'dist/runExplorerWorker.js', plugins: [casApart] },
  { ...node, entryPoints: ['src/scoring/compare/compareWorker.ts'], outfile: 'dist/compareWorker.js', plugins: [casApart] },
  { ...node, format: 'esm', entryPoints: ['src/core/cas/casModule.ts'], outfile: 'dist/computeEngine.mjs' },
  { ...browser, entryPoints: ['webview/panelMain.ts'], outfile: 'dist/webview.js', plugins: [katexApart] },
  { ...browser, entryPoints: ['webview/run/runMain.ts'], outfile: 'dist/runWebview.js' },
  { ...browser, entryPoints: ['webview/explorer/explorerMain.ts'], outfile: 'dist/explorerWebview.js' },
  { ...browser, entryPoints: ['webview/compare/compareMain.ts'], outfile: 'dist/compareWebview.js' },
  { ...browser, entryPoints: ['webview/rules/rulesMain.ts'], outfile: 'dist/rulesWebview.js' },
  { ...browser, stdin: { contents: "export { default } from 'katex';", resolveDir: '.', loader: 'js' }, outfile: 'dist/katex.js' },
  ...vendorBundles,
].filter((e) => !e.entryPoints || existsSync(e.entryPoints[0]));

if (isWatch) {
  for (const e of entries) await (await esbuild.context(e)).watch();
} else {
  await Promise.all(entries.map((e) => esbuild.build(e)));
}
