/**
 * ONNX scorer throughput: the whole pipeline (tokenize, batch, worker round trips, session.run,
 * read-out) against `session.run` alone on the same pre-tokenized batches, in the same process
 * and run. The model is the generated tiny-bench variant (4 × 512² MatMuls per token, so the
 * runtime's compute dominates as it does for a real PRM); its scores mean nothing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import * as ort from 'onnxruntime-node';
import { planBatches, type BatchRow } from '../../src/scoring/scorers/onnx/batching';
import { createOnnxScorer } from '../../src/scoring/scorers/onnx/onnxScorer';
import { buildPrmInput } from '../../src/scoring/scorers/profiles/prmInput';
import { parseProfileManifest, resolveProfile } from '../../src/scoring/scorers/profiles/profile';
import { loadPrmTokenizer } from '../../src/scoring/scorers/profiles/checkpointTokenizer';
import type { ScoreItem } from '../../src/scoring/scorers/scorer';
import type { BenchResult } from './types';

const BATCH_TOKENS = 8192;
const THREADS = 1;
const REPEATS = 3;

function repoRoot(): string {
  let dir = process.cwd();
  while (!existsSync(join(dir, 'scripts', 'build-tiny-model.mjs'))) {
    if (dirname(dir) === dir) throw new Error('run the scoring bench from inside the prof-lens checkout');
    dir = dirname(dir);
  }
  return dir;
}

/** GSM8K model solutions (steps = lines) from the test fixtures. */
function loadItems(root: string): ScoreItem[] {
  const path = resolve(root, 'test/fixtures/data/gsm8k_openai_example_model_solutions_first120.jsonl');
  const items: ScoreItem[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
    const record = JSON.parse(line) as Record<string, unknown>;
    for (const value of Object.values(record)) {
      const solution = (value as { solution?: unknown } | null)?.solution;
      if (typeof solution !== 'string') continue;
      items.push({ id: items.length, prompt: String(record.question), steps: solution.split('\n').filter(Boolean) });
    }
  }
  return items;
}

async function prepare(root: string): Promise<{ dir: string; modelDir: string; workerPath: string }> {
  const base = join(root, 'test/fixtures/generated');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, 'bench-'));
  execFileSync(process.execPath, [join(root, 'scripts/build-tiny-model.mjs'), dir, '--only', 'tiny-bench']);
  const workerPath = join(dir, 'onnxWorker.js');
  await build({
    entryPoints: [join(root, 'src/scoring/scorers/onnx/onnxWorker.ts')], outfile: workerPath, bundle: true,
    platform: 'node', format: 'cjs', target: 'node20', external: ['onnxruntime-node'], logLevel: 'warning',
  });
  return { dir, modelDir: join(dir, 'tiny-bench'), workerPath };
}

async function bestOf(repeats: number, fn: () => Promise<void>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    await fn();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** The same batches the scorer would send, pre-tokenized and turned into feeds up front. */
interface BareWorkload {
  feeds: Record<string, ort.Tensor>[];
  steps: number;
  tokens: number;
}

async function bareFeeds(modelDir: string, items: readonly ScoreItem[]): Promise<BareWorkload> {
  const tokenizer = await loadPrmTokenizer(modelDir);
  const manifest = JSON.parse(readFileSync(join(modelDir, 'prof-lens.json'), 'utf8')) as unknown;
  const profile = resolveProfile(parseProfileManifest(manifest), tokenizer);
  const rows: BatchRow[] = items.map((item, key) => {
    const input = buildPrmInput({ profile, tokenizer, prompt: item.prompt, steps: item.steps });
    return { key, ids: input.ids, positions: input.separatorPositions };
  });
  const feeds = planBatches(rows, BATCH_TOKENS).map((batch) => {
    const width = Math.max(...batch.map((r) => r.ids.length));
    const ids = new BigInt64Array(batch.length * width).fill(BigInt(profile.padId));
    const mask = new BigInt64Array(batch.length * width);
    batch.forEach((r, b) =>
      r.ids.forEach((id, t) => {
        ids[b * width + t] = BigInt(id);
        mask[b * width + t] = 1n;
      }),
    );
    const dims = [batch.length, width];
    return { input_ids: new ort.Tensor('int64', ids, dims), attention_mask: new ort.Tensor('int64', mask, dims) };
  });
  return {
    feeds,
    steps: rows.reduce((n, r) => n + r.positions.length, 0),
    tokens: rows.reduce((n, r) => n + r.ids.length, 0),
  };
}

/** Measures pipeline and bare-runtime throughput on the tiny-bench model. */
export async function run(): Promise<BenchResult[]> {
  const root = repoRoot();
  const { dir, modelDir, workerPath } = await prepare(root);
  const items = loadItems(root);
  const scorer = await createOnnxScorer({
    modelDir, workerPath, providers: ['cpu'], intraOpThreads: THREADS, batchTokens: BATCH_TOKENS,
  });
  const session = await ort.InferenceSession.create(join(modelDir, 'model.onnx'), {
    executionProviders: ['cpu'], intraOpNumThreads: THREADS, graphOptimizationLevel: 'all',
  });
  try {
    const bare = await bareFeeds(modelDir, items);
    await scorer.score(items.slice(0, 8));
    await session.run(bare.feeds[0] as Record<string, ort.Tensor>);
    const bareMs = await bestOf(REPEATS, async () => {
      for (const feeds of bare.feeds) await session.run(feeds);
    });
    const pipelineMs = await bestOf(REPEATS, async () => {
      await scorer.score(items);
    });
    const note =
      `${items.length} rollouts, ${bare.steps} steps, ${bare.tokens} tokens, ${bare.feeds.length} batches of ` +
      `≤${BATCH_TOKENS} padded tokens, ${THREADS} intra-op thread, best of ${REPEATS}; ` +
      'tiny-bench model (not a PRM); target ratio ≥ 0.8';
    const figure = (unit: 'steps' | 'tokens', count: number): BenchResult => ({
      name: `onnx scorer pipeline ${unit}/s`,
      value: (count * 1000) / pipelineMs,
      unit: `${unit}/s`,
      baseline: { name: 'session.run alone', value: (count * 1000) / bareMs },
      ratio: bareMs / pipelineMs,
      note,
    });
    return [figure('steps', bare.steps), figure('tokens', bare.tokens)];
  } finally {
    await scorer.dispose();
    await session.release();
    rmSync(dir, { recursive: true, force: true });
  }
}
