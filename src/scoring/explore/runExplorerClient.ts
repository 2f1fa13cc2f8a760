/**
 * The extension host's end of the run explorer worker: one supervised worker thread (every
 * request settles once; a cancel it does not heed in time replaces it; one that dies is started
 * again). A run opened in the Explorer lives in the worker until it is closed.
 */
import { Worker } from 'node:worker_threads';
import type { ExplorerAnswer, ExplorerCall } from '../../protocol/explorer';
import { isRunExplorerToHost, type AuditResult, type HostToRunExplorer, type RunExplorerToHost, type RunProgressView } from '../../protocol/runExplorer';
import { SupervisedWorker } from '../workers/supervisedWorker';
import { stopAfterAsking } from '../workers/workerPolicy';
import type { RunReading } from './runRequests';

const STOP_GRACE_MS = 2_000;

export class RunExplorerClient {
  private readonly worker: SupervisedWorker<RunExplorerToHost>;

  constructor(workerPath: string) {
    this.worker = new SupervisedWorker<RunExplorerToHost>({
      name: 'run explorer',
      spawn: () => new Worker(workerPath),
      isReply: isRunExplorerToHost,
      idOf: (reply) => reply.id,
      isFinal: (reply) => reply.type !== 'runProgress',
      cancelMessage: (id) => ({ type: 'cancel', id } satisfies HostToRunExplorer),
      stop: stopAfterAsking({ type: 'shutdown' } satisfies HostToRunExplorer, STOP_GRACE_MS),
    });
  }

  /** Reads a run into the table under `key`; `onProgress` as files come in; resolves when every file is read. */
  async openRun(key: string, reading: RunReading, onProgress: (progress: RunProgressView) => void, signal?: AbortSignal): Promise<RunProgressView> {
    const reply = await this.worker.request((id) => ({ type: 'openRun', id, key, ...reading } satisfies HostToRunExplorer), {
      ...(signal ? { signal } : {}),
      retries: 0,
      onReply: (r) => r.type === 'runProgress' && onProgress(r.progress),
    });
    if (reply.type === 'runRead') return reply.progress;
    throw new Error(reply.type === 'failed' ? reply.message : `the run explorer worker answered ${reply.type}`);
  }

  async explore<M extends ExplorerCall['method']>(key: string, call: Extract<ExplorerCall, { method: M }>, signal?: AbortSignal): Promise<Extract<ExplorerAnswer, { method: M }>> {
    const reply = await this.worker.request((id) => ({ type: 'explore', id, key, call } satisfies HostToRunExplorer), { ...(signal ? { signal } : {}), retries: 0 });
    if (reply.type === 'explored' && reply.answer.method === call.method) return reply.answer as Extract<ExplorerAnswer, { method: M }>;
    throw new Error(reply.type === 'failed' ? reply.message : `the run explorer worker answered ${reply.type}`);
  }

  async audit(reading: RunReading, signal?: AbortSignal): Promise<AuditResult> {
    const reply = await this.worker.request((id) => ({ type: 'audit', id, ...reading } satisfies HostToRunExplorer), signal ? { signal } : {});
    if (reply.type === 'audited') return reply.result;
    throw new Error(reply.type === 'failed' ? reply.message : `the run explorer worker answered ${reply.type}`);
  }

  close(key: string): void {
    this.worker.notify({ type: 'close', key } satisfies HostToRunExplorer);
  }

  dispose(): Promise<void> {
    return this.worker.dispose();
  }
}
