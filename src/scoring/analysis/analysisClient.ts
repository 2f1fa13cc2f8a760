/**
 * The host side of the analysis worker (`dist/analysisWorker.js`), under the shared worker policy
 * (`./supervisedWorker`): typed requests, chunked answers taken in at the host's pace, a cancel
 * that stops the worker when it does not answer in time, a restart with backoff when the worker
 * dies (the analysis it was running is sent once more, then reported as failed). Plain Node, so
 * the editor and the tests use the same client.
 */
import { Worker } from 'node:worker_threads';
import {
  isWorkerToHost,
  unpackRawSteps,
  type AnalyseRequest,
  type AnalysisSummary,
  type RolloutDetail,
  type RolloutKeys,
  type RolloutSummary,
  type SendPlan,
  type WorkerToHost,
} from '../../protocol/analysis';
import type { EndpointStatus } from '../../protocol/endpoints';
import { unpackScores } from '../../protocol/summaryPacking';
import type { ExplorerAnswer, ExplorerCall } from '../../protocol/explorer';
import type { ModelConfig } from '../../protocol/modelConfig';
import type { HeatAnswer } from '../../core/tokens/rolloutHeat';
import { SupervisedWorker } from '../workers/supervisedWorker';
import { stopAfterAsking } from '../workers/workerPolicy';

/** A finished analysis as the host keeps it. */
export interface HostAnalysis {
  rollouts: RolloutSummary[];
  summary: AnalysisSummary;
}

/** Callbacks for one analysis; `onChunk` lets the caller decorate before the last chunk arrives. */
export interface AnalyseCallbacks {
  /** `activity` names a slow phase (loading a model, scoring with it); `endpoints`, a served model's endpoints. */
  onProgress?: (done: number, total: number, activity?: string, endpoints?: EndpointStatus[]) => void;
  onChunk?: (rollouts: readonly RolloutSummary[]) => void;
  /** Asked before rollouts go to a critic; no answer → nothing is sent. */
  onConsent?: (plan: SendPlan) => Promise<boolean>;
  /** The worker died under this analysis and it starts again: drop the chunks received so far. */
  onRestart?: () => void;
}

/** A request in flight: cancel it, or await its result. */
export interface AnalysisJob {
  readonly result: Promise<HostAnalysis>;
  cancel(): void;
}

/** Raised when a job was cancelled; callers usually ignore it. */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}

export interface AnalysisClientOptions {
  /** Starts the worker (tests pass one with a crash hook in its environment). */
  spawn?: () => Worker;
  /** How long a cancelled analysis may keep the worker busy before it is stopped (default 2 s). */
  cancelGraceMs?: number;
}

/** How long a deactivating or replaced worker gets to close its model before it is terminated. */
const SHUTDOWN_GRACE_MS = 3_000;

/** Runs analyses in one long-lived worker thread. */
export class AnalysisClient {
  private readonly worker: SupervisedWorker<WorkerToHost>;

  constructor(workerPath: string, options: AnalysisClientOptions = {}) {
    this.worker = new SupervisedWorker<WorkerToHost>({
      name: 'analysis',
      spawn: options.spawn ?? (() => new Worker(workerPath)),
      isReply: isWorkerToHost,
      idOf: (reply) => reply.requestId,
      isFinal: (reply) => reply.type === 'analysed' || reply.type === 'failed' || reply.type === 'details' || reply.type === 'explored' || reply.type === 'labelKeys' || reply.type === 'heat',
      cancelMessage: (requestId) => ({ type: 'cancel', requestId }),
      cancelGraceMs: options.cancelGraceMs ?? 2_000,
      // The worker closes its model (and the model's own thread) itself when asked; it is
      // terminated only when it has not ended in time (stuck in computation).
      stop: stopAfterAsking({ type: 'shutdown' }, SHUTDOWN_GRACE_MS),
    });
  }

  /**
   * Starts the worker thread now (its bundle loaded, its code compiled) rather than on the first
   * analysis, so the first file opened does not wait for it. A failure to start is the first
   * analysis's to report.
   */
  start(): void {
    this.worker.start().catch(() => undefined);
  }

  /** Called when a new worker replaced one that died or was stopped: analyses it held are gone. */
  onDidRestart(listener: () => void): { dispose(): void } {
    return this.worker.onDidRestart(listener);
  }

  /** Starts an analysis; the worker streams results back in chunks. */
  analyse(request: Omit<AnalyseRequest, 'type' | 'requestId'>, callbacks: AnalyseCallbacks = {}): AnalysisJob {
    const controller = new AbortController();
    let rollouts: RolloutSummary[] = [];
    const reply = this.worker.request((requestId) => ({ type: 'analyse', requestId, ...request }), {
      signal: controller.signal,
      onReply: (message) => {
        if (message.type === 'progress') callbacks.onProgress?.(message.done, message.total, message.activity, message.endpoints);
        if (message.type === 'consent') void this.answerConsent(message.requestId, message.plan, controller.signal, callbacks.onConsent);
        if (message.type !== 'rollouts') return;
        if (message.rawSpans) unpackRawSteps(message.rollouts, message.rawSpans);
        if (message.scores) unpackScores(message.rollouts, message.scores);
        rollouts.push(...message.rollouts);
        callbacks.onChunk?.(message.rollouts);
        // Ask for the next chunk only after a turn of the event loop, so other work runs between chunks.
        setImmediate(() => !controller.signal.aborted && this.worker.notify({ type: 'more', requestId: message.requestId }));
      },
      onRetry: () => {
        rollouts = [];
        callbacks.onRestart?.();
      },
    });
    const result = reply.then(
      (message) => {
        if (message.type === 'analysed') return { rollouts, summary: message.summary };
        if (message.type === 'failed' && message.isCancelled) throw new CancelledError();
        throw new Error(message.type === 'failed' ? message.message : 'unexpected reply to an analysis');
      },
      (error: unknown) => {
        throw controller.signal.aborted ? new CancelledError() : error;
      },
    );
    return { result, cancel: () => controller.abort() };
  }

  /** Fetches full texts of some rollouts of an analysed document. */
  async details(documentKey: string, rolloutIds: number[]): Promise<RolloutDetail[]> {
    const message = await this.worker.request((requestId) => ({ type: 'details', requestId, documentKey, rolloutIds }));
    if (message.type === 'details') return message.rollouts;
    throw new Error(message.type === 'failed' ? message.message : 'unexpected reply to a details request');
  }

  /**
   * Asks the Rollout Explorer (or the Compare view) something about an analysed document; the
   * worker answers from the analysis it keeps. `signal` cancels (a newer query replaces this one).
   */
  async explore<M extends ExplorerCall['method']>(documentKey: string, call: Extract<ExplorerCall, { method: M }>, signal?: AbortSignal): Promise<Extract<ExplorerAnswer, { method: M }>> {
    const message = await this.worker.request((requestId) => ({ type: 'explore', requestId, documentKey, call }), signal ? { signal } : {});
    if (message.type === 'explored' && message.answer.method === call.method) return message.answer as Extract<ExplorerAnswer, { method: M }>;
    if (message.type === 'failed' && message.isCancelled) throw new CancelledError();
    throw new Error(message.type === 'failed' ? message.message : 'unexpected reply to an explorer request');
  }

  /** The content keys of an analysed document's rollouts (all of them, or some with their step keys). */
  /** The token heat of some rollouts, and the file's hot steps when `withHot` (see `protocol/analysis.ts`). */
  async heat(documentKey: string, rolloutIds: number[], withHot: boolean): Promise<HeatAnswer> {
    const message = await this.worker.request((requestId) => ({ type: 'heat', requestId, documentKey, rolloutIds, withHot }));
    if (message.type === 'heat') return message.answer;
    throw new Error(message.type === 'failed' ? message.message : 'unexpected reply to a heat request');
  }

  async labelKeys(documentKey: string, rolloutIds: number[] | null): Promise<RolloutKeys[]> {
    const message = await this.worker.request((requestId) => ({ type: 'labelKeys', requestId, documentKey, rolloutIds }));
    if (message.type === 'labelKeys') return message.keys;
    throw new Error(message.type === 'failed' ? message.message : 'unexpected reply to a label keys request');
  }

  /** Lets the worker drop a closed document's analysis. */
  forget(documentKey: string): void {
    this.worker.notify({ type: 'forget', documentKey });
  }

  /** Tells the worker which model the settings name now, so it can close one no longer wanted. */
  configureModel(model: ModelConfig | null): void {
    this.worker.notify({ type: 'configure', model });
  }

  dispose(): void {
    void this.worker.dispose();
  }

  private async answerConsent(requestId: number, plan: SendPlan, signal: AbortSignal, ask: AnalyseCallbacks['onConsent']): Promise<void> {
    const isGranted = ask ? await ask(plan).catch(() => false) : false;
    if (!signal.aborted) this.worker.notify({ type: 'consentReply', requestId, isGranted });
  }
}
