/**
 * The CAS as a service on a time and memory budget: the engine runs in its own worker thread
 * (`casWorker.js`) under the shared worker policy. Each task must be answered within the budget;
 * a worker that goes silent longer (or runs out of its memory) is stopped, the task it was on is
 * "not decided" with the reason, and the rest of the batch goes to a fresh worker. A batch is one
 * request, so grading a file costs one round trip per batch, not per answer.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Worker as WorkerThread } from 'node:worker_threads';
import { shorten } from '../../core/cas/casLimits';
import type { CasResult, CasService, CasTask } from '../../core/cas/casService';
import { isCasToHost, type CasToHost } from '../../protocol/cas';
import { SupervisedWorker } from '../workers/supervisedWorker';
import { WorkerCrashError, WorkerStallError } from '../workers/workerPolicy';

/** How long one task may take (well above the ~1 ms a real comparison costs, even on a loaded machine). */
export const CAS_TASK_BUDGET_MS = 1500;
/** The worker's heap: the engine needs about 60 MB; a runaway bignum is stopped here. */
const CAS_HEAP_MB = 384;

export interface CasClientOptions {
  /** The bundled worker; default `casWorker.js` beside this bundle (or in the package's `dist/`). */
  workerPath?: string;
  /** Milliseconds one task may take (default {@link CAS_TASK_BUDGET_MS}). */
  budgetMs?: number;
  /** Let the process exit while the worker is idle (default true). */
  unrefWhenIdle?: boolean;
}

/** `name` beside the running bundle, else in `dist/` of the package this file belongs to (tests run the sources). */
export function bundledWorkerPath(name: string): string {
  const beside = join(__dirname, name);
  if (existsSync(beside)) return beside;
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const built = join(dir, 'dist', name);
    if (existsSync(join(dir, 'package.json')) && existsSync(built)) return built;
  }
  throw new Error(`the worker bundle ${name} is missing (run npm run build)`);
}

/** The CAS in a worker thread; see the module comment. */
export class CasClient implements CasService {
  private readonly worker: SupervisedWorker<CasToHost>;
  /** Milliseconds one task may take. */
  readonly budgetMs: number;

  constructor(options: CasClientOptions = {}) {
    this.budgetMs = options.budgetMs ?? CAS_TASK_BUDGET_MS;
    const workerPath = options.workerPath;
    this.worker = new SupervisedWorker<CasToHost>({
      name: 'CAS',
      // `node:worker_threads` loads with the first worker: a command that never needs the CAS starts without it.
      spawn: (): WorkerThread => new (require('node:worker_threads') as typeof import('node:worker_threads')).Worker(workerPath ?? bundledWorkerPath('casWorker.js'), { resourceLimits: { maxOldGenerationSizeMb: CAS_HEAP_MB } }),
      isReply: isCasToHost,
      idOf: (reply) => reply.id,
      isFinal: (reply) => reply.type !== 'result',
      init: {
        message: (id) => ({ type: 'load', id }),
        check: (reply) => (reply.type === 'ready' ? null : new Error(reply.type === 'failed' ? reply.message : 'the CAS did not load')),
      },
      stallMs: this.budgetMs,
      cancelGraceMs: this.budgetMs,
      unrefWhenIdle: options.unrefWhenIdle ?? true,
    });
  }

  async run(tasks: readonly CasTask[], signal?: AbortSignal): Promise<CasResult[]> {
    const results = new Array<CasResult | undefined>(tasks.length);
    let remaining = tasks.map((_, i) => i);
    while (remaining.length > 0) {
      const batch = remaining;
      const got = new Map<number, CasResult>();
      try {
        const reply = await this.worker.request((id) => ({ type: 'run', id, tasks: batch.map((i) => tasks[i]) }), {
          ...(signal ? { signal } : {}),
          onReply: (r) => r.type === 'result' && got.set(r.index, r.result),
          // A task that kills the worker is found and skipped below, so a request is never resent whole.
          retries: 0,
        });
        const failure = reply.type === 'failed' ? `the algebra system failed: ${reply.message}` : 'no answer from the algebra system';
        batch.forEach((task, k) => (results[task] = got.get(k) ?? notDecided(failure)));
        remaining = [];
      } catch (error) {
        if (!(error instanceof WorkerStallError || error instanceof WorkerCrashError)) throw error;
        // Results arrive in order: the first task without one is the one the worker was on.
        const stuck = batch.findIndex((_, k) => !got.has(k));
        batch.forEach((task, k) => got.has(k) && (results[task] = got.get(k)));
        if (stuck < 0) break;
        const task = tasks[batch[stuck] as number] as CasTask;
        results[batch[stuck] as number] = notDecided(error instanceof WorkerStallError
          ? `${describe(task)} took more than the algebra system's ${this.budgetMs} ms budget`
          : `${describe(task)} stopped the algebra system (${error.message})`);
        remaining = batch.slice(stuck + 1).filter((_, k) => !got.has(stuck + 1 + k));
      }
    }
    return results.map((r) => r ?? notDecided('no answer from the algebra system'));
  }

  dispose(): Promise<void> {
    return this.worker.dispose();
  }
}

function notDecided(reason: string): CasResult {
  return { kind: 'not-decided', reason };
}

function describe(task: CasTask): string {
  return task.kind === 'value' ? shorten(task.latex) : `${shorten(task.pred.text)} against ${shorten(task.gold.text)}`;
}

/** A CAS to use and how to let it go: the one passed in (its owner stops it), else one of the caller's own. */
export interface HeldCas {
  cas: CasService;
  /** Stops the caller's own CAS worker; nothing for one passed in. */
  release(): Promise<void>;
}

/**
 * `given` when the composition root (a CLI command, a worker) passed one in; otherwise a CAS worker
 * of the caller's own, started on first use and stopped by `release` (a later use starts a new one).
 */
export function holdCas(given: CasService | undefined): HeldCas {
  if (given) return { cas: given, release: () => Promise.resolve() };
  let own: CasClient | null = null;
  return {
    cas: { run: (tasks, signal) => (own ??= new CasClient()).run(tasks, signal) },
    release: async () => {
      const client = own;
      own = null;
      await client?.dispose();
    },
  };
}
