// `npm run bench`: bundle the benchmark modules and run them; figures are printed and written to
// test-output/bench/results.json. Every ratio is against a baseline measured in the same run.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';

await esbuild.build({
  entryPoints: ['test/bench/main.ts'],
  outfile: 'dist/bench.js',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // The scoring benchmark builds the worker bundle at run time, so esbuild stays a real module.
  external: ['onnxruntime-node', 'esbuild'],
  logLevel: 'warning',
});
const result = spawnSync(process.execPath, ['--expose-gc', 'dist/bench.js', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
