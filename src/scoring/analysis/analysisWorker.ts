/**
 * The analysis worker: reads, scores and filters a rollout file off the extension host's thread.
 * It keeps the last analysis of each document so the Rollout View can ask for full texts later
 * without the host ever holding every response in memory.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { groupNamesOfAnalysis, rolloutCount, type AnalysedRollout, type FileAnalysis } from '../../core/report/fileAnalysis';
import {
  isHostToWorker,
  packRawSteps,
  summariseRollout,
  type AnalyseRequest,
  type DetailsRequest,
  type HostToWorker,
  type LabelKeysRequest,
  type HeatRequest,
  type SendPlan,
  type WorkerToHost,
} from '../../protocol/analysis';
import type { EndpointStatus } from '../../protocol/endpoints';
import { packScores } from '../../protocol/summaryPacking';
import { unhandled } from '../../protocol/messages';
import { CasClient } from '../cas/casClient';
import { analyseWithModel } from './modelAnalysis';
import { ModelScorers } from '../scorers/modelScorers';
import { keptAnalysisOf, rolloutDetails, type KeptAnalysis } from './rolloutDetails';
import { ExplorerRequests } from '../explore/explorerRequests';
import { labelKeysOf } from '../labels/labelKeys';
import { fileHeat } from '../heat/fileHeat';
import { analysisThreshold } from '../calibration/analysisThreshold';
import type { ThresholdSource } from '../../core/evaluation/thresholdChoice';
import { errorText } from '../../core/errorText';

/** Rollout summaries per message: small enough that the host deserialises one in a few ms. */
const CHUNK_SIZE = 400;
/** Chunks posted before the host's first `more`; each `more` then posts one, so at most this many wait for the host. */
const CHUNKS_AHEAD = 2;
/** Progress messages are throttled; the status bar does not need more. */
const PROGRESS_INTERVAL_MS = 100;

const port = parentPort;
/** The configured model, kept open across analyses so an edit never reloads it. */
const models = new ModelScorers();
/** The worker's CAS, shared by its analyses and stopped when the worker is asked to end. */
const cas = new CasClient();
const analyses = new Map<string, KeptAnalysis>();
const running = new Map<number, AbortController>();
/** Results waiting for the host's `more`: the remaining chunks (made when asked for), then the closing message. */
const outboxes = new Map<number, Generator<WorkerToHost>>();
/** The Rollout Explorer's and the Compare view's queries, over the kept analyses. */
const explorers = new ExplorerRequests((documentKey) => analyses.get(documentKey));
/** Analyses waiting for the user's answer about sending rollouts to a critic. */
const consents = new Map<number, (isGranted: boolean) => void>();

/**
 * Test hook, never set by users: the path of a marker file. While it does not exist, the worker
 * creates it and dies in the middle of its next analysis (the restart tests need a crash on cue).
 */
const CRASH_ONCE_MARKER = process.env['PROF_LENS_TEST_CRASH_ANALYSIS_ONCE'];

function crashOnceForTests(): void {
  if (!CRASH_ONCE_MARKER || existsSync(CRASH_ONCE_MARKER)) return;
  writeFileSync(CRASH_ONCE_MARKER, 'the analysis worker crashed here on purpose\n');
  process.exit(70);
}

function post(message: WorkerToHost): void {
  // A chunk's packed offsets and scores are handed over, not copied.
  if (message.type === 'rollouts') {
    const transfer: ArrayBuffer[] = [];
    if (message.rawSpans) transfer.push(message.rawSpans.buffer as ArrayBuffer);
    if (message.scores) transfer.push(message.scores.columns.buffer as ArrayBuffer);
    port?.postMessage(message, transfer);
  } else port?.postMessage(message);
}

/** Asks the host, and waits (a cancel answers no). */
function askConsent(requestId: number, plan: SendPlan, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const answer = (isGranted: boolean): void => {
      consents.delete(requestId);
      signal.removeEventListener('abort', onAbort);
      resolve(isGranted);
    };
    const onAbort = (): void => answer(false);
    signal.addEventListener('abort', onAbort, { once: true });
    consents.set(requestId, answer);
    post({ type: 'consent', requestId, plan });
  });
}

async function analyse(request: AnalyseRequest): Promise<void> {
  const controller = new AbortController();
  running.set(request.requestId, controller);
  const started = performance.now();
  let lastProgress = 0;
  try {
    // A file on disk streams (it may be larger than one string can be); editor text is analysed whole.
    const result = await analyseWithModel(request.source, {
      fileName: request.fileName,
      settings: request.settings,
      scorer: request.scorer,
      model: request.model,
      models,
      cas,
      shouldRetryModel: request.shouldRetryModel === true,
      signal: controller.signal,
      onProgress: (done, total, activity, endpoints) => {
        crashOnceForTests();
        const now = performance.now();
        if (now - lastProgress < PROGRESS_INTERVAL_MS && done < total && total > 0) return;
        lastProgress = now;
        post({ type: 'progress', requestId: request.requestId, done, total, ...(activity ? { activity } : {}), ...(endpoints ? { endpoints } : {}) });
      },
      ...(request.shouldConfirmSend ? { confirmSend: (plan: SendPlan) => askConsent(request.requestId, plan, controller.signal) } : {}),
      chooseThreshold: (model) => analysisThreshold({
        source: request.source,
        fileName: request.fileName,
        settings: request.settings,
        isThresholdGiven: request.isThresholdGiven === true,
        scorer: request.scorer,
        ...(model ? { model } : {}),
        calibrationsDir: request.calibrationsDir ?? null,
      }),
    });
    if (controller.signal.aborted) throw new Error('cancelled');
    const { analysis, modelError, modelDeclined, endpoints, threshold } = result;
    analyses.set(request.documentKey, keptAnalysisOf(request.source, result));
    sendResults({ request, analysis, durationMs: performance.now() - started, model: { modelError, modelDeclined, endpoints, threshold } });
  } catch (error) {
    const isCancelled = controller.signal.aborted;
    post({ type: 'failed', requestId: request.requestId, message: describe(error), isCancelled });
  } finally {
    running.delete(request.requestId);
  }
}

/**
 * Rows in sending order, a chunk at a time: the rollouts on the lines the user sees first (one
 * chunk), then the rest in file order. Made as they are sent, from the analysis's columns, so its
 * rollouts are never all objects at once.
 */
function* chunksOf(analysis: FileAnalysis, priority: AnalyseRequest['priorityLines']): Generator<number[]> {
  const count = rolloutCount(analysis);
  const lineOf = analysis.rows ? analysis.rows.line.bind(analysis.rows) : (row: number) => (analysis.rollouts[row] as AnalysedRollout).line;
  const isPriority = (row: number): boolean => !!priority && lineOf(row) >= priority.from && lineOf(row) <= priority.to;
  const first: number[] = [];
  for (let row = 0; row < count; row++) if (isPriority(row)) first.push(row);
  if (first.length > 0) yield first;
  let chunk: number[] = [];
  for (let row = 0; row < count; row++) {
    if (first.length > 0 && isPriority(row)) continue;
    chunk.push(row);
    if (chunk.length === CHUNK_SIZE) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

interface Results {
  request: AnalyseRequest;
  analysis: FileAnalysis;
  durationMs: number;
  /** What the summary says about the model. */
  model: { modelError?: string | undefined; modelDeclined?: string | undefined; endpoints?: EndpointStatus[] | undefined; threshold?: ThresholdSource | undefined };
}

/** The messages of a finished analysis, made one at a time as the host asks for them: the chunks, then the closing message. */
function* resultsOf({ request, analysis, durationMs, model }: Results): Generator<WorkerToHost> {
  const { requestId } = request;
  const rolloutAt = analysis.rows ? analysis.rows.at.bind(analysis.rows) : (row: number) => analysis.rollouts[row] as AnalysedRollout;
  for (const rows of chunksOf(analysis, request.priorityLines)) {
    const rollouts = rows.map((row) => summariseRollout(rolloutAt(row)));
    const scores = packScores(rollouts);
    yield { type: 'rollouts', requestId, rollouts, rawSpans: packRawSteps(rollouts), ...(scores ? { scores } : {}) };
  }
  yield {
    type: 'analysed',
    requestId,
    summary: {
      diagnostics: analysis.diagnostics,
      report: analysis.report,
      scorer: analysis.scorer,
      settings: analysis.settings,
      rolloutCount: rolloutCount(analysis),
      groupNames: [...groupNamesOfAnalysis(analysis)],
      durationMs,
      ...(model.modelError === undefined ? {} : { modelError: model.modelError }),
      ...(model.modelDeclined === undefined ? {} : { modelDeclined: model.modelDeclined }),
      ...(model.endpoints === undefined ? {} : { endpoints: model.endpoints }),
      ...(model.threshold === undefined ? {} : { threshold: model.threshold }),
    },
  };
}

function sendResults(results: Results): void {
  outboxes.set(results.request.requestId, resultsOf(results));
  // One chunk ahead of the host: it reads one while this thread makes (and copies) the next.
  for (let i = 0; i < CHUNKS_AHEAD; i++) sendNext(results.request.requestId);
}

/** Posts the next waiting message of a request; the last one closes it. */
function sendNext(requestId: number): void {
  const next = outboxes.get(requestId)?.next();
  if (!next || next.done) return void outboxes.delete(requestId);
  if (next.value.type === 'analysed') outboxes.delete(requestId);
  post(next.value);
}

/**
 * Answers a request about a kept analysis with `answer(kept)`; a file not analysed (or forgotten)
 * and a failure are each the request's `failed` reply.
 */
async function fromKept(request: { requestId: number; documentKey: string }, answer: (kept: KeptAnalysis) => Promise<WorkerToHost>): Promise<void> {
  const kept = analyses.get(request.documentKey);
  if (!kept) {
    post({ type: 'failed', requestId: request.requestId, message: 'the file has not been analysed', isCancelled: false });
    return;
  }
  try {
    post(await answer(kept));
  } catch (error) {
    post({ type: 'failed', requestId: request.requestId, message: describe(error), isCancelled: false });
  }
}

function details(request: DetailsRequest): Promise<void> {
  return fromKept(request, async (kept) => ({ type: 'details', requestId: request.requestId, rollouts: await rolloutDetails(kept, request.rolloutIds) }));
}

function heat(request: HeatRequest): Promise<void> {
  return fromKept(request, async (kept) => ({ type: 'heat', requestId: request.requestId, answer: await fileHeat(kept, request.rolloutIds, request.withHot) }));
}

async function explore(request: Extract<HostToWorker, { type: 'explore' }>): Promise<void> {
  const controller = new AbortController();
  running.set(request.requestId, controller);
  try {
    post({ type: 'explored', requestId: request.requestId, answer: await explorers.answer(request.documentKey, request.call, controller.signal) });
  } catch (error) {
    post({ type: 'failed', requestId: request.requestId, message: describe(error), isCancelled: controller.signal.aborted });
  } finally {
    running.delete(request.requestId);
  }
}

function labelKeys(request: LabelKeysRequest): Promise<void> {
  return fromKept(request, async (kept) => ({ type: 'labelKeys', requestId: request.requestId, keys: await labelKeysOf(kept, request.rolloutIds) }));
}

function describe(error: unknown): string {
  return errorText(error);
}

port?.on('message', (message: unknown) => {
  if (!isHostToWorker(message)) return;
  switch (message.type) {
    case 'analyse':
      void analyse(message);
      break;
    case 'more':
      sendNext(message.requestId);
      break;
    case 'cancel':
      running.get(message.requestId)?.abort();
      outboxes.delete(message.requestId);
      break;
    case 'details':
      void details(message);
      break;
    case 'labelKeys':
      void labelKeys(message);
      break;
    case 'heat':
      void heat(message);
      break;
    case 'forget':
      analyses.delete(message.documentKey);
      explorers.forget(message.documentKey);
      break;
    case 'explore':
      void explore(message);
      break;
    case 'configure':
      void models.configure(message.model);
      break;
    case 'consentReply':
      consents.get(message.requestId)?.(message.isGranted);
      break;
    case 'shutdown':
      // The model's own worker thread is terminated before this one ends.
      void Promise.allSettled([models.release(), cas.dispose()]).finally(() => process.exit(0));
      break;
    default:
      unhandled(message);
  }
});
