/**
 * A summary worker (`dist/runWorker.js`): summarises the files of a training run one at a time,
 * off the thread that asked (the CLI's main thread, the extension host). Several run side by side,
 * one file each. A configured model is opened once per worker and kept for the next file.
 */
import { parentPort } from 'node:worker_threads';
import { isHostToSummaryWorker, type SummariseRequest, type SummaryWorkerToHost } from '../../protocol/runSummaries';
import { isModelChoice } from '../../core/scorerChoice';
import { ModelScorers } from '../scorers/modelScorers';
import type { Scorer } from '../scorers/scorer';
import { summariseFile } from './summariseFile';
import { CasClient } from '../cas/casClient';
import { errorText } from '../../core/errorText';

const port = parentPort;
const models = new ModelScorers();
/** The worker's CAS, shared by its files and stopped when the worker is asked to end. */
const cas = new CasClient();
const running = new Map<number, AbortController>();
/** Progress is throttled: a dashboard or a terminal line needs no more. */
const PROGRESS_INTERVAL_MS = 200;
/**
 * When this worker last sent progress, whatever the file: a run of small files is done a file every
 * few tens of milliseconds, and a message per file said nothing the file's result does not.
 */
let lastProgress = 0;

function post(message: SummaryWorkerToHost): void {
  port?.postMessage(message);
}

async function modelFor(request: SummariseRequest): Promise<{ scorer?: Scorer; error?: string }> {
  const wantsModel = request.scorer === 'auto' || isModelChoice(request.scorer);
  if (!request.model || !wantsModel) return {};
  const result = await models.acquire(request.model);
  return 'scorer' in result ? { scorer: result.scorer } : { error: result.error };
}

async function summarise(request: SummariseRequest): Promise<void> {
  const controller = new AbortController();
  running.set(request.id, controller);
  try {
    const model = await modelFor(request);
    // A model kind without a model (it failed to open) scores with the checker; the chain sees to that.
    const choice = request.scorer;
    const onBytes = (bytes: number): void => {
      const now = performance.now();
      if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
      lastProgress = now;
      post({ type: 'progress', id: request.id, bytes });
    };
    const { figures, scorerLabel } = await summariseFile(request.file, {
      settings: request.settings,
      scorer: choice,
      ...(model.scorer ? { modelScorer: model.scorer } : {}),
      signal: controller.signal,
      cas,
      onBytes,
    });
    // A cancel that arrived while the last batch was analysed still wins over the result.
    controller.signal.throwIfAborted();
    post({ type: 'summarised', id: request.id, figures, scorerLabel, ...(model.error === undefined ? {} : { modelError: model.error }) });
  } catch (error) {
    post({ type: 'failed', id: request.id, message: errorText(error), isCancelled: controller.signal.aborted });
  } finally {
    running.delete(request.id);
  }
}

port?.on('message', (message: unknown) => {
  if (!isHostToSummaryWorker(message)) return;
  switch (message.type) {
    case 'summarise':
      void summarise(message);
      break;
    case 'cancel':
      running.get(message.id)?.abort();
      break;
    case 'shutdown':
      void Promise.allSettled([models.release(), cas.dispose()]).finally(() => process.exit(0));
      break;
    default: {
      const unexpected: never = message;
      void unexpected;
    }
  }
});
