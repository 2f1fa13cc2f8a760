/**
 * The `onnx` scorer: a PRM exported to ONNX, run by onnxruntime-node in a worker thread. The
 * model folder's tokenizer runs in a worker of its own on a time budget (its `tokenizer.json` can
 * hold a pattern that never finishes); the host packs the tokenized rollouts into length-sorted
 * batches and hands them to the ONNX worker in windows, so tokenizing the next window overlaps
 * running the current one.
 */
import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { StepScoring } from '../../../core/model';
import type { ScoreItem, ScoreOptions, Scorer, ScorerInfo } from '../scorer';
import type { PrmInput } from '../profiles/prmInput';
import { parseProfileManifest, type PrmProfile } from '../profiles/profile';
import { TokenizerClient } from '../profiles/tokenizerClient';
import { planBatches, type BatchRow } from './batching';
import { OnnxWorkerClient, abortError } from './workerClient';

export interface OnnxScorerOptions {
  /** Folder with model.onnx (+ model.onnx_data), tokenizer.json, tokenizer_config.json, prof-lens.json. */
  modelDir: string;
  /** Execution providers to try in order; default per platform (see `defaultProviders`). */
  providers?: string[];
  /** Threads per operator; default onnxruntime's. */
  intraOpThreads?: number;
  /** Padded tokens per batch (rows × longest row); default 16384. */
  batchTokens?: number;
  /** The bundled worker script; default `onnxWorker.js` beside this bundle. */
  workerPath?: string;
  /** Milliseconds the tokenizer may take to load, or on one rollout (default 15 s). */
  tokenizerBudgetMs?: number;
}

/** Scorer info plus why the requested providers were not used, when the session fell back. */
export interface OnnxScorerInfo extends ScorerInfo {
  fallbackReason?: string;
}

export interface OnnxScorer extends Scorer {
  readonly info: OnnxScorerInfo;
  /** The resolved profile (token ids, readout, context limit). */
  readonly profile: PrmProfile;
  /** Starts the worker now rather than on the first request; resolves with the provider in use. */
  start(): Promise<OnnxScorerInfo>;
  /** The model's input names and the output read, as the worker found them; null before start. */
  readonly modelIo: { inputNames: string[]; outputName: string } | null;
}

/** Providers tried by default: Linux cuda, Windows dml, macOS arm64 coreml, each then cpu. */
export function defaultProviders(platform: string = process.platform, arch: string = process.arch): string[] {
  if (platform === 'linux') return ['cuda', 'cpu'];
  if (platform === 'win32') return ['dml', 'cpu'];
  if (platform === 'darwin' && arch === 'arm64') return ['coreml', 'cpu'];
  return ['cpu'];
}

const DEFAULT_BATCH_TOKENS = 16384;
/**
 * Batches tokenized and sorted together before being sent: bigger sorts better, smaller starts
 * sooner. The first window is small so the worker starts while the rest is still tokenized.
 */
const FIRST_WINDOW_BATCHES = 2;
const WINDOW_BATCHES = 8;
const CONTEXT_NOTE = 'unscored (context)';
/** Rollouts tokenized per request to the tokenizer's worker. */
const TOKENIZE_CHUNK = 64;

/** The tokenizer worker beside a given ONNX worker bundle, when it is there (else the package's own). */
function tokenizerWorkerBeside(workerPath: string | undefined): { workerPath?: string } {
  const beside = workerPath === undefined ? null : join(dirname(workerPath), 'tokenizerWorker.js');
  return beside !== null && existsSync(beside) ? { workerPath: beside } : {};
}

async function readManifest(modelDir: string): Promise<unknown> {
  const path = join(modelDir, 'prof-lens.json');
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (err) {
    throw new Error(`cannot read the model manifest ${path}: ${(err as Error).message}`);
  }
}

/** Opens a model folder and returns a scorer; the worker itself starts on first use. */
export async function createOnnxScorer(options: OnnxScorerOptions): Promise<OnnxScorer> {
  const modelPath = join(options.modelDir, 'model.onnx');
  if (!existsSync(modelPath)) throw new Error(`no model.onnx in ${options.modelDir}`);
  const manifest = parseProfileManifest(await readManifest(options.modelDir));
  const tokens = new TokenizerClient({ modelDir: options.modelDir, manifest, ...(options.tokenizerBudgetMs ? { budgetMs: options.tokenizerBudgetMs } : {}), ...tokenizerWorkerBeside(options.workerPath) });
  const profile = await tokens.load().catch(async (error: unknown) => {
    await tokens.dispose();
    throw error;
  });
  const client = new OnnxWorkerClient({
    workerPath: options.workerPath ?? join(__dirname, 'onnxWorker.js'),
    init: {
      modelPath,
      providers: options.providers ?? defaultProviders(),
      intraOpThreads: options.intraOpThreads ?? null,
      profile: profile.name,
      readout: profile.readout,
    },
  });
  return new OnnxScorerImpl({ profile, tokens, client, batchTokens: options.batchTokens ?? DEFAULT_BATCH_TOKENS });
}

interface ScorerParts {
  profile: PrmProfile;
  tokens: TokenizerClient;
  client: OnnxWorkerClient;
  batchTokens: number;
}

type Built = { input: PrmInput; steps: number } | { error: string };

/** The state of one `score` call. */
interface RequestRun {
  controller: AbortController;
  onProgress?: ScoreOptions['onProgress'];
  /** Scores per item, filled as batches return. */
  scores: (number[] | null)[];
  pending: Promise<void>[];
  done: number;
  total: number;
}

class OnnxScorerImpl implements OnnxScorer {
  readonly profile: PrmProfile;

  constructor(private readonly parts: ScorerParts) {
    this.profile = parts.profile;
  }

  get info(): OnnxScorerInfo {
    const ready = this.parts.client.ready;
    const provider = ready?.provider;
    const fallback = ready?.fallbackReason ?? undefined;
    return {
      kind: 'onnx',
      // The reason's head ("cuda unavailable") is short enough for a status bar.
      label: `onnx ${this.profile.name} (${provider ?? 'not started'}${fallback ? `; ${fallback.split(':')[0]}` : ''})`,
      model: this.profile.model,
      profile: this.profile.name,
      ...(provider === undefined ? {} : { provider }),
      ...(fallback === undefined ? {} : { fallbackReason: fallback }),
    };
  }

  get modelIo(): { inputNames: string[]; outputName: string } | null {
    const ready = this.parts.client.ready;
    return ready ? { inputNames: [...ready.inputNames], outputName: ready.outputName } : null;
  }

  async start(): Promise<OnnxScorerInfo> {
    await this.parts.client.start();
    return this.info;
  }

  async score(items: readonly ScoreItem[], options: ScoreOptions = {}): Promise<StepScoring[]> {
    const { signal, onProgress } = options;
    if (signal?.aborted) throw abortError(signal);
    // Linked so that a failed batch, like the caller's cancel, stops this request's queued batches.
    const local = new AbortController();
    // Every queued batch listens on it: one listener per batch is expected, not a leak.
    setMaxListeners(0, local.signal);
    const onAbort = (): void => local.abort(abortError(signal));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const scores = new Array<number[] | null>(items.length).fill(null);
      const run: RequestRun = { controller: local, onProgress, scores, pending: [], done: 0, total: items.length };
      return await this.scoreAll(items, run);
    } catch (err) {
      local.abort(err);
      throw signal?.aborted ? abortError(signal) : err;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async dispose(): Promise<void> {
    await Promise.all([this.parts.client.dispose(), this.parts.tokens.dispose()]);
  }

  /** Input ids of items `from`…`to`, tokenized in the tokenizer's worker. */
  private async build(items: readonly ScoreItem[], signal: AbortSignal): Promise<Built[]> {
    const inputs = await this.parts.tokens.build(items.map((item) => ({ prompt: item.prompt, steps: item.steps })), signal);
    return inputs.map((b, k) => ('error' in b ? b : { input: b.input, steps: (items[k] as ScoreItem).steps.length }));
  }

  private async scoreAll(items: readonly ScoreItem[], run: RequestRun): Promise<StepScoring[]> {
    const built = new Array<Built>(items.length);
    let window: BatchRow[] = [];
    let windowTokens = 0;
    let windowLimit = FIRST_WINDOW_BATCHES * this.parts.batchTokens;
    let tokenized: Built[] = [];
    for (let i = 0; i < items.length; i++) {
      if (i % TOKENIZE_CHUNK === 0) tokenized = await this.build(items.slice(i, i + TOKENIZE_CHUNK), run.controller.signal);
      const b = tokenized[i % TOKENIZE_CHUNK] as Built;
      built[i] = b;
      if ('error' in b || b.input.separatorPositions.length === 0) {
        this.report(run, 1);
        continue;
      }
      window.push({ key: i, ids: b.input.ids, positions: b.input.separatorPositions });
      windowTokens += b.input.ids.length;
      if (windowTokens < windowLimit) continue;
      this.submit(window, run);
      [window, windowTokens, windowLimit] = [[], 0, WINDOW_BATCHES * this.parts.batchTokens];
      // Let worker replies and cancellation in between long tokenizing runs.
      await new Promise((r) => setImmediate(r));
      if (run.controller.signal.aborted) throw run.controller.signal.reason;
    }
    this.submit(window, run);
    await Promise.all(run.pending);
    return built.map((b, i) => this.toScoring(b, run.scores[i] ?? []));
  }

  private report(run: RequestRun, finished: number): void {
    run.done += finished;
    run.onProgress?.(run.done, run.total);
  }

  private submit(window: readonly BatchRow[], run: RequestRun): void {
    for (const batch of planBatches(window, this.parts.batchTokens)) {
      const p = this.runBatch(batch, run.scores, run.controller.signal).then(() => this.report(run, batch.length));
      // Handled now: a failure while scoreAll is still tokenizing must not go unobserved.
      p.catch((err: unknown) => run.controller.abort(err));
      run.pending.push(p);
    }
  }

  private async runBatch(batch: BatchRow[], out: (number[] | null)[], signal: AbortSignal): Promise<void> {
    const result = await this.parts.client.run(
      { rows: batch.map((r) => [...r.ids]), positions: batch.map((r) => [...r.positions]), padId: this.profile.padId },
      signal,
    );
    batch.forEach((row, j) => (out[row.key] = result[j] ?? []));
  }

  private toScoring(built: Built, scored: number[]): StepScoring {
    const scorer = `onnx:${this.profile.name}@${this.parts.client.ready?.provider ?? 'cpu'}`;
    if ('error' in built) return { kind: 'unscored', reason: built.error, scorer };
    const unscoredFrom = built.input.unscoredFromStep;
    const stepScores: (number | null)[] = [];
    const notes: (string | null)[] = [];
    for (let s = 0; s < built.steps; s++) {
      const isBeyond = unscoredFrom !== null && s >= unscoredFrom;
      stepScores.push(isBeyond ? null : (scored[s] ?? null));
      notes.push(isBeyond ? CONTEXT_NOTE : null);
    }
    if (unscoredFrom === null) return { kind: 'scored', scores: stepScores, scorer };
    return { kind: 'scored', scores: stepScores, notes, scorer };
  }
}
