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
} from '../../../protocol/onnx';
import { openPrmSession, runPrmBatch, type PrmSession } from './session';
import { errorText } from '../../../core/errorText';

let prm: PrmSession | null = null;
let chain: Promise<void> = Promise.resolve();

function send(message: WorkerToHostMessage): void {
  parentPort?.postMessage(message);
}

/** Release the native session now (synchronous underneath), so no finalizer runs during teardown. */
function releaseSession(): void {
  const held = prm;
  prm = null;
  if (held) void held.session.release().catch(() => undefined);
}

// A worker that ends for any reason (process.exit, an uncaught error) lets go of its session first.
process.on('exit', releaseSession);

async function handle(message: HostToWorkerMessage): Promise<WorkerToHostMessage | null> {
  switch (message.type) {
    case 'shutdown':
      releaseSession();
      // With the port closed nothing keeps the thread alive: it ends with exit code 0.
      parentPort?.close();
      return null;
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
      const reply = await handle(raw);
      if (reply) send(reply);
    } catch (err) {
      send({ type: 'failed', id: raw.id, message: errorText(err) });
    }
  });
});
