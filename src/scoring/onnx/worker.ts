/**
 * The ONNX scoring worker (bundled to `dist/onnxWorker.js`). `session.run()` is synchronous native
 * code, so it runs here rather than on the extension host's thread. Requests are handled one at a
 * time, in arrival order; each gets exactly one response.
 */
import { parentPort } from 'node:worker_threads';
import {
  isHostToWorkerMessage,
  type HostToWorkerMessage,
  type WorkerToHostMessage,
} from '../../protocol/worker';
import { openPrmSession, runPrmBatch, type PrmSession } from './session';

let prm: PrmSession | null = null;
let chain: Promise<void> = Promise.resolve();

function send(message: WorkerToHostMessage): void {
  parentPort?.postMessage(message);
}

async function handle(message: HostToWorkerMessage): Promise<WorkerToHostMessage> {
  switch (message.type) {
    case 'init': {
      if (prm) await prm.session.release();
      prm = null;
      prm = await openPrmSession({
        modelPath: message.modelPath,
        providers: message.providers,
        intraOpThreads: message.intraOpThreads,
        profile: message.profile,
        readout: message.readout,
      });
      return {
        type: 'ready', id: message.id, provider: prm.provider, fallbackReason: prm.fallbackReason,
        inputNames: [...prm.session.inputNames], outputName: prm.outputName,
      };
    }
    case 'run': {
      if (!prm) throw new Error('the scoring worker received a batch before its model was loaded');
      const started = performance.now();
      const scores = await runPrmBatch(prm, message);
      return { type: 'scores', id: message.id, scores, runMs: performance.now() - started };
    }
  }
}

parentPort?.on('message', (raw: unknown) => {
  if (!isHostToWorkerMessage(raw)) {
    const id = (raw as { id?: unknown } | null)?.id;
    send({ type: 'failed', id: typeof id === 'number' ? id : -1, message: 'the scoring worker received a malformed request' });
    return;
  }
  // Serialise: a batch must not start before the session it needs is open.
  chain = chain.then(async () => {
    try {
      send(await handle(raw));
    } catch (err) {
      send({ type: 'failed', id: raw.id, message: err instanceof Error ? err.message : String(err) });
    }
  });
});
