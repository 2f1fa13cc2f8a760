/**
 * The model folder's tokenizer as a service on a time budget: it runs in its own worker thread
 * (`tokenizerWorker.js`) under the shared worker policy, like the CAS. Loading (with one trial
 * rollout) and each rollout must each be answered within the budget. A tokenizer that overruns
 * it is not used at all: its pattern backtracks on some text, and every rollout that reaches it
 * would stall the same way, so the scorer fails with a message saying so instead of hanging.
 */
import { Worker } from 'node:worker_threads';
import { isTokenizerToHost, type TokenizeItem, type TokenizerToHost } from '../../../protocol/tokenizer';
import { bundledWorkerPath } from '../../cas/casClient';
import { SupervisedWorker } from '../../workers/supervisedWorker';
import { WorkerStallError } from '../../workers/workerPolicy';
import type { PrmInput } from './prmInput';
import type { PrmProfile, ProfileManifest } from './profile';

/** How long loading, or one rollout, may take (a 7 MB `tokenizer.json` loads in about a second; a rollout takes milliseconds). */
export const TOKENIZER_BUDGET_MS = 15_000;

/** One rollout's input ids, or why it has none. */
export type BuiltInput = { input: PrmInput } | { error: string };

export interface TokenizerClientOptions {
  modelDir: string;
  manifest: ProfileManifest;
  /** Milliseconds loading or one rollout may take (default {@link TOKENIZER_BUDGET_MS}). */
  budgetMs?: number;
  workerPath?: string;
}

/** The tokenizer in a worker thread; see the module comment. */
export class TokenizerClient {
  private readonly worker: SupervisedWorker<TokenizerToHost>;
  private readonly budgetMs: number;
  private profile: PrmProfile | null = null;

  constructor(private readonly options: TokenizerClientOptions) {
    this.budgetMs = options.budgetMs ?? TOKENIZER_BUDGET_MS;
    this.worker = new SupervisedWorker<TokenizerToHost>({
      name: 'tokenizer',
      spawn: () => new Worker(options.workerPath ?? bundledWorkerPath('tokenizerWorker.js')),
      isReply: isTokenizerToHost,
      idOf: (reply) => reply.id,
      isFinal: (reply) => reply.type === 'done' || reply.type === 'failed',
      stallMs: this.budgetMs,
      cancelGraceMs: this.budgetMs,
      unrefWhenIdle: true,
    });
  }

  /** Loads the tokenizer (within the budget) and returns the profile resolved against it. */
  async load(signal?: AbortSignal): Promise<PrmProfile> {
    if (this.profile) return this.profile;
    await this.build([], signal);
    if (!this.profile) throw new Error(`the tokenizer of ${this.options.modelDir} did not load`);
    return this.profile;
  }

  /** Input ids of `items`, in order. */
  async build(items: readonly TokenizeItem[], signal?: AbortSignal): Promise<BuiltInput[]> {
    const built = new Array<BuiltInput | undefined>(items.length);
    let isLoaded = false;
    try {
      const reply = await this.worker.request((id) => ({ type: 'build', id, modelDir: this.options.modelDir, manifest: this.options.manifest, items }), {
        ...(signal ? { signal } : {}),
        onReply: (r) => {
          if (r.type === 'loaded') {
            isLoaded = true;
            this.profile ??= r.profile as PrmProfile;
          } else if (r.type === 'input') built[r.index] = r.input ? { input: r.input } : { error: r.error ?? 'not tokenized' };
        },
        retries: 0,
      });
      if (reply.type === 'failed') throw new Error(reply.message);
    } catch (error) {
      if (!(error instanceof WorkerStallError)) throw error;
      await this.dispose();
      const what = isLoaded ? 'on one rollout' : 'to load (with one trial rollout)';
      throw new Error(`the tokenizer of ${this.options.modelDir} took more than ${this.budgetMs / 1000} s ${what}: a pre-tokenizer pattern in its tokenizer.json backtracks without end on some text; it is not used`);
    }
    return built.map((b) => b ?? { error: 'not tokenized' });
  }

  dispose(): Promise<void> {
    return this.worker.dispose();
  }
}
