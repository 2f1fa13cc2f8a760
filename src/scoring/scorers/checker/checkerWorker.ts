/**
 * A checker worker (bundled to `dist/checkerWorker.js`): judges the steps of the rollouts it is
 * sent, one request at a time, with the same code as the checker in the host. What only the CAS
 * can decide is left to the host (it names those steps), which keeps one CAS for the process.
 */
import { parentPort } from 'node:worker_threads';
import { isHostToChecker, stepsOf, type CheckerToHost } from '../../../protocol/checker';
import { judgeSteps } from './judgeSteps';

const port = parentPort;

function post(message: CheckerToHost, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

port?.on('message', (message: unknown) => {
  if (!isHostToChecker(message)) return;
  const items = stepsOf(message);
  if (!items) return post({ type: 'failed', id: message.id, message: 'the step lengths do not fit the text sent' });
  try {
    const judged = judgeSteps(items, message.scores);
    post({ type: 'judged', id: message.id, ...judged }, [judged.scores.buffer as ArrayBuffer, judged.noteLengths.buffer as ArrayBuffer]);
  } catch (error) {
    post({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) });
  }
});
