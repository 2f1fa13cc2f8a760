/**
 * The host side of the analysis worker: starts `dist/analysisWorker.js`, sends typed requests and
 * collects chunked answers. Owns the worker; disposing it terminates the thread.
 */
import * as vscode from 'vscode';
import { Worker } from 'node:worker_threads';
import {
  isWorkerToHost,
  type AnalyseRequest,
  type AnalysisSummary,
  type HostToWorker,
  type RolloutDetail,
  type RolloutSummary,
  type SendPlan,
  type WorkerToHost,
} from '../protocol/analysis';
import type { EndpointStatus } from '../protocol/endpoints';
import type { ModelConfig } from '../protocol/modelConfig';

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

interface Pending {
  onMessage: (message: WorkerToHost) => void;
}

/** How long a deactivating worker gets to close its model before it is terminated. */
const SHUTDOWN_GRACE_MS = 3_000;

/** Runs analyses in one long-lived worker thread. */
export class AnalysisClient implements vscode.Disposable {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextRequestId = 1;

  constructor(workerPath: string) {
    this.worker = new Worker(workerPath);
    this.worker.on('message', (message: unknown) => {
      if (!isWorkerToHost(message)) return;
      this.pending.get(message.requestId)?.onMessage(message);
    });
    this.worker.on('error', (error) => this.failAll(error));
    this.worker.on('exit', (code) => this.failAll(new Error(`the analysis worker stopped (exit code ${code})`)));
  }

  /** Starts an analysis; the worker streams results back in chunks. */
  analyse(request: Omit<AnalyseRequest, 'type' | 'requestId'>, callbacks: AnalyseCallbacks = {}): AnalysisJob {
    const requestId = this.nextRequestId++;
    const rollouts: RolloutSummary[] = [];
    let rejectJob: (error: Error) => void = () => undefined;
    const result = new Promise<HostAnalysis>((resolve, reject) => {
      rejectJob = reject;
      this.pending.set(requestId, {
        onMessage: (message) => {
          switch (message.type) {
            case 'progress':
              callbacks.onProgress?.(message.done, message.total, message.activity, message.endpoints);
              break;
            case 'consent':
              void this.answerConsent(requestId, message.plan, callbacks.onConsent);
              break;
            case 'rollouts':
              rollouts.push(...message.rollouts);
              callbacks.onChunk?.(message.rollouts);
              // Ask for the next chunk only after a turn of the event loop, so other work runs between chunks.
              setImmediate(() => this.pending.has(requestId) && this.post({ type: 'more', requestId }));
              break;
            case 'analysed':
              this.pending.delete(requestId);
              resolve({ rollouts, summary: message.summary });
              break;
            case 'failed':
              this.pending.delete(requestId);
              reject(message.isCancelled ? new CancelledError() : new Error(message.message));
              break;
            case 'details':
              break;
          }
        },
      });
      this.post({ type: 'analyse', requestId, ...request });
    });
    const cancel = (): void => {
      if (!this.pending.delete(requestId)) return;
      // Later chunks of this request find no listener and are dropped.
      this.post({ type: 'cancel', requestId });
      rejectJob(new CancelledError());
    };
    return { result, cancel };
  }

  /** Fetches full texts of some rollouts of an analysed document. */
  details(documentKey: string, rolloutIds: number[]): Promise<RolloutDetail[]> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve, reject) => {
      this.pending.set(requestId, {
        onMessage: (message) => {
          this.pending.delete(requestId);
          if (message.type === 'details') resolve(message.rollouts);
          else if (message.type === 'failed') reject(new Error(message.message));
        },
      });
      this.post({ type: 'details', requestId, documentKey, rolloutIds });
    });
  }

  /** Lets the worker drop a closed document's analysis. */
  forget(documentKey: string): void {
    this.post({ type: 'forget', documentKey });
  }

  /** Tells the worker which model the settings name now, so it can close one no longer wanted. */
  configureModel(model: ModelConfig | null): void {
    this.post({ type: 'configure', model });
  }

  dispose(): void {
    this.pending.clear();
    // The worker closes its model (and that model's own thread) itself; terminate it if it hangs.
    this.post({ type: 'shutdown' });
    setTimeout(() => void this.worker.terminate(), SHUTDOWN_GRACE_MS).unref();
  }

  private async answerConsent(requestId: number, plan: SendPlan, ask: AnalyseCallbacks['onConsent']): Promise<void> {
    const isGranted = ask ? await ask(plan).catch(() => false) : false;
    if (this.pending.has(requestId)) this.post({ type: 'consentReply', requestId, isGranted });
  }

  private post(message: HostToWorker): void {
    this.worker.postMessage(message);
  }

  private failAll(error: Error): void {
    const entries = [...this.pending.entries()];
    this.pending.clear();
    for (const [requestId, pending] of entries) {
      pending.onMessage({ type: 'failed', requestId, message: error.message, isCancelled: false });
    }
  }
}
