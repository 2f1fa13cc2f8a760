/**
 * Checker worker threads, one per core: the steps of a large file are judged in parallel while the
 * host reads, groups and decides in file order. Each worker runs under the one worker policy every
 * PROF Lens worker runs under (SupervisedWorker: every request settles once, a worker that dies is
 * started again and its request sent once more, then failed). A request goes to the worker with the
 * fewest waiting; each worker's heap is capped, and so is what waits for it.
 */
import { Worker } from 'node:worker_threads';
import { isCheckerToHost, judgedItems, judgeRequest, type CheckerScores, type CheckerToHost, type JudgedItem } from '../../../protocol/checker';
import { bundledWorkerPath } from '../../cas/casClient';
import { SupervisedWorker } from '../../workers/supervisedWorker';

/** A worker's old-generation heap: far above what a request of 64 rollouts needs, far below the machine. */
const WORKER_HEAP_MB = 512;
/** A larger young generation than Node's default: a worker's garbage is short-lived, and collected in fewer, cheaper passes. */
const WORKER_YOUNG_MB = 48;
/** Requests sent to a worker before its earlier ones are answered (one computing, one waiting). */
const IN_FLIGHT = 2;

type CheckerWorker = SupervisedWorker<CheckerToHost>;

export class CheckerPool {
  private readonly workers: CheckerWorker[];

  constructor(size: number, workerPath?: string) {
    const path = workerPath ?? bundledWorkerPath('checkerWorker.js');
    this.workers = Array.from({ length: Math.max(1, Math.floor(size)) }, () => new SupervisedWorker<CheckerToHost>({
      name: 'checker',
      spawn: () => new Worker(path, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB } }),
      isReply: isCheckerToHost,
      idOf: (reply) => reply.id,
      isFinal: () => true,
      maxInFlight: IN_FLIGHT,
      // An idle pool never holds the command line open.
      unrefWhenIdle: true,
    }));
  }

  /** How many workers judge at once. */
  get size(): number {
    return this.workers.length;
  }

  /** Judge the steps of `items` (one list of step texts per item) in the least busy worker. */
  async judge(items: string[][], scores: CheckerScores, signal?: AbortSignal): Promise<JudgedItem[]> {
    let worker = this.workers[0] as CheckerWorker;
    for (const w of this.workers) if (w.pending < worker.pending) worker = w;
    const reply = await worker.request((id) => judgeRequest(id, items, scores), signal ? { signal } : {});
    if (reply.type === 'failed') throw new Error(reply.message);
    const judged = judgedItems(reply, items.map((steps) => steps.length));
    if (!judged) throw new Error(`the checker worker's answer does not fit the ${items.length} items sent`);
    return judged;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.dispose()));
  }
}
