/**
 * The run explorer worker (`dist/runExplorerWorker.js`): reads a training run's step files off the
 * extension host's thread, for the Rollout Explorer over a run and the Run Dashboard's health
 * audit (`RunRequests`). Messages in `protocol/runExplorer.ts`.
 */
import { parentPort } from 'node:worker_threads';
import { isHostToRunExplorer, type HostToRunExplorer, type RunExplorerToHost } from '../../protocol/runExplorer';
import { CasClient } from '../cas/casClient';
import { errorText } from '../../core/errorText';
import { RunRequests } from './runRequests';

const port = parentPort;
/** The worker's CAS, shared by its files and stopped when the worker is asked to end. */
const cas = new CasClient();
const requests = new RunRequests(cas);
const running = new Map<number, AbortController>();

function post(message: RunExplorerToHost): void {
  port?.postMessage(message);
}

async function settle(id: number, work: (signal: AbortSignal) => Promise<RunExplorerToHost>): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  try {
    post(await work(controller.signal));
  } catch (error) {
    post({ type: 'failed', id, message: errorText(error), isCancelled: controller.signal.aborted });
  } finally {
    running.delete(id);
  }
}

function receive(message: HostToRunExplorer): void {
  switch (message.type) {
    case 'openRun':
      void settle(message.id, async (signal) => ({ type: 'runRead', id: message.id, progress: await requests.open(message.key, message, (progress) => post({ type: 'runProgress', id: message.id, progress }), signal) }));
      break;
    case 'explore':
      void settle(message.id, async (signal) => ({ type: 'explored', id: message.id, answer: await requests.answer(message.key, message.call, signal) }));
      break;
    case 'audit':
      void settle(message.id, async (signal) => ({ type: 'audited', id: message.id, result: await requests.audit(message, signal) }));
      break;
    case 'cancel':
      running.get(message.id)?.abort();
      break;
    case 'close':
      requests.close(message.key);
      break;
    case 'shutdown':
      void cas.dispose().finally(() => process.exit(0));
      break;
    default: {
      const unexpected: never = message;
      void unexpected;
    }
  }
}

port?.on('message', (message: unknown) => {
  if (isHostToRunExplorer(message)) receive(message);
});
