/**
 * The compare side worker (`dist/compareWorker.js`): analyses one side of `prof-lens compare`
 * off the command's thread, so the two sides are read at once on two cores, and sends back only
 * the side's prompts (a few numbers per prompt).
 */
import { parentPort } from 'node:worker_threads';
import { isAnalyseSideRequest, type CompareWorkerToHost } from '../../protocol/compare';
import { releaseSharedCas } from '../cas/casClient';
import { analyseSide } from './analyseSide';
import { CompareSourceError } from './compareSource';

const port = parentPort;

function post(message: CompareWorkerToHost): void {
  port?.postMessage(message);
}

port?.on('message', (message: unknown) => {
  if (!isAnalyseSideRequest(message)) return;
  const { id, source, settings, scorer } = message;
  analyseSide(source, { settings, scorer })
    .then((result) => post({ type: 'side', id, ...result }))
    .catch((error: unknown) => post({ type: 'failed', id, message: error instanceof Error ? error.message : String(error), isSourceError: error instanceof CompareSourceError }))
    // The CAS worker this one may have started ends with the request.
    .finally(() => void releaseSharedCas());
});
