/**
 * The compare side worker (`dist/compareWorker.js`): analyses one side of `prof-lens compare`
 * off the command's thread, so the two sides are read at once on two cores, and sends back only
 * the side's prompts (a few numbers per prompt).
 */
import { parentPort } from 'node:worker_threads';
import { isAnalyseSideRequest, type CompareWorkerToHost } from '../../protocol/compare';
import { CasClient } from '../cas/casClient';
import { analyseSide } from './analyseSide';
import { CompareSourceError } from './compareSource';
import { errorText } from '../../core/errorText';

const port = parentPort;

function post(message: CompareWorkerToHost): void {
  port?.postMessage(message);
}

port?.on('message', (message: unknown) => {
  if (!isAnalyseSideRequest(message)) return;
  const { id, source, settings, scorer } = message;
  // Each request has a CAS worker of its own, which ends with it.
  const cas = new CasClient();
  analyseSide(source, { settings, scorer, cas })
    .then((result) => post({ type: 'side', id, ...result }))
    .catch((error: unknown) => post({ type: 'failed', id, message: errorText(error), isSourceError: error instanceof CompareSourceError }))
    .finally(() => void cas.dispose());
});
