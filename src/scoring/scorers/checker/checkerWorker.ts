/**
 * A checker worker (bundled to `dist/checkerWorker.js`): judges the steps of the rollouts it is
 * sent, one request at a time, with the same code as the checker in the host. What only the CAS
 * can decide is left to the host (it names those steps), which keeps one CAS for the process.
 */
import { parentPort } from 'node:worker_threads';
import { isHostToChecker, stepsOf, type CheckerToHost } from '../../../protocol/checker';
import { judgeItem } from './judgeItem';

const port = parentPort;

function post(message: CheckerToHost): void {
  port?.postMessage(message);
}

port?.on('message', (message: unknown) => {
  if (!isHostToChecker(message)) return;
  const items = stepsOf(message);
  if (!items) return post({ type: 'failed', id: message.id, message: 'the step lengths do not fit the text sent' });
  try {
    post({ type: 'judged', id: message.id, items: items.map((steps) => judgeItem(steps, message.scores)) });
  } catch (error) {
    post({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) });
  }
});
