/**
 * Messages between the extension host and the analysis worker (`dist/analysisWorker.js`).
 * JSON-plain, discriminated on `type`. The host sends `analyse` requests; the worker answers each
 * with zero or more `progress` and `rollouts` chunks and then exactly one `analysed` or `failed`;
 * the worker posts one chunk more than the host has asked for (`more`), so the host takes results
 * in at its own pace, its event loop never has more than two chunks waiting to deserialise, and the
 * worker makes the next chunk while the host reads the last.
 * `details` requests get exactly one `details` or `failed`. Results arrive in chunks so the host
 * never deserialises a whole 40 MB file's analysis in one event-loop turn.
 */
import type { AnalysedRollout, FileAnalysis } from '../core/report/fileAnalysis';
import type { Diagnostic } from '../core/model';
import type { ThresholdSource } from '../core/evaluation/thresholdChoice';
import type { ProfSettings } from '../core/profSettings';
import type { HeatAnswer } from '../core/tokens/rolloutHeat';
import { isScorerChoice } from '../core/scorerChoice';
import { isEndpointStatusList, type EndpointStatus } from './endpoints';
import { isModelConfig } from './modelConfig';
import { isExplorerAnswer, isExplorerCall } from './explorer';
import { arrayOf, either, isArray, isBoolean, isNumber, isRecord, isString, literal, nullable, optional, outline, shape, type Guard } from './guards';
import { message, protocol, request, type MessageOf, type Sent } from './messages';

/**
 * What the host knows about one rollout: everything the decorations, hovers and Problems need,
 * with the facts they show (low steps, weakest step, evidence) already derived by the analysis.
 */
export type RolloutSummary = Pick<
  AnalysedRollout,
  | 'id' | 'line' | 'index' | 'group' | 'gold' | 'rawSteps' | 'stepScores' | 'stepNotes' | 'scorer'
  | 'outcome' | 'decision' | 'falsePositive'
  | 'lowSteps' | 'firstLowStep' | 'weakestStep' | 'isScored' | 'evidence'
> & Partial<Pick<AnalysedRollout, 'format' | 'questionReading' | 'outcomeField' | 'rewards'>>;

/**
 * The full text of a rollout, fetched only when the Rollout View shows it, with the prompt's and
 * the response's turns when they are a chat.
 */
export type RolloutDetail = RolloutSummary & Pick<AnalysedRollout, 'prompt' | 'response' | 'steps'> & Partial<Pick<AnalysedRollout, 'responseTurns' | 'promptReading'>>;

/** File-level results sent after the last rollout chunk. */
export interface AnalysisSummary {
  diagnostics: Diagnostic[];
  report: FileAnalysis['report'];
  scorer: FileAnalysis['scorer'];
  /** The settings the analysis ran with (threshold, λ, Hλ … for hovers). */
  settings: ProfSettings;
  rolloutCount: number;
  /**
   * Each group's name (its question without the instruction every group shares), by the id of the
   * group's first rollout; the first `MAX_NAMED_GROUPS` groups of the file.
   */
  groupNames?: [number, string][];
  /** Time the worker spent, for the status bar tooltip and benchmarks. */
  durationMs: number;
  /** Why the requested model did not score this analysis (it fell back), when it did not. */
  modelError?: string;
  /** The user declined to send rollouts to the critic: what was not sent (the checker scored instead). */
  modelDeclined?: string;
  /** The state of each endpoint of a served model, when one scored. */
  endpoints?: EndpointStatus[];
  /** Where the threshold the analysis used came from (a stored calibration, the user, the default), when known. */
  threshold?: ThresholdSource;
}

/** Where the worker reads the file from: the editor's text, or the disk for unmodified files. */
export type AnalysisSource = { kind: 'text'; text: string } | { kind: 'path'; path: string };

/** What scoring with a critic would send, for the user to agree to first. */
export interface SendPlan {
  /** Rollouts not in the cache, each one request. */
  rollouts: number;
  /** Rough prompt tokens over all of them. */
  approxTokens: number;
  /** `max_tokens` of each answer. */
  maxAnswerTokens: number;
  /** The endpoints' base URLs. */
  urls: string[];
  model: string;
}

/** One rollout's content keys; `stepKeys` only when the rollout was asked for by id. */
export interface RolloutKeys {
  id: number;
  key: string;
  stepKeys?: string[];
}

const id = { requestId: isNumber };
const document = { requestId: isNumber, documentKey: isString };

/* ---- worker → host ---- */

export const progress = message('toHost', 'progress', {
  ...id,
  done: isNumber,
  total: isNumber,
  /** What the worker is doing, when a user would want to know (loading a model, scoring with it). */
  activity: optional(isString),
  /** Each endpoint's state while a served model scores. */
  endpoints: optional(isEndpointStatusList),
});
/**
 * A chunk of summaries. Their steps' raw offsets travel apart, packed in one transferred array
 * (`packRawSteps`), and are put back on arrival (`unpackRawSteps`): copied as an object each they
 * were most of what the host spent taking a large file's summaries in. Their step scores and
 * group keys travel apart too (`packScores`, `unpackScores`).
 */
export const rollouts = message('toHost', 'rollouts', {
  ...id,
  rollouts: isArray as Guard<RolloutSummary[]>,
  rawSpans: optional((value: unknown): value is Int32Array => value instanceof Int32Array),
  /** The summaries' step scores and group keys, when they were packed (`packScores`). */
  scores: optional(shape({ columns: (value: unknown): value is Float64Array => value instanceof Float64Array, groups: arrayOf(isString) })),
});
export const analysed = message('toHost', 'analysed', { ...id, summary: outline<AnalysisSummary>({}) });
export const detailsReply = message('toHost', 'details', { ...id, rollouts: isArray as Guard<RolloutDetail[]> });
export const labelKeysReply = message('toHost', 'labelKeys', { ...id, keys: isArray as Guard<RolloutKeys[]> });
export const heatReply = message('toHost', 'heat', { ...id, answer: outline<HeatAnswer>({ rollouts: isArray, rankedRollouts: isNumber }) });
export const explored = message('toHost', 'explored', { ...id, answer: isExplorerAnswer });
/** A request failed (or was cancelled): its one answer. */
export const failed = message('toHost', 'failed', { ...id, message: isString, isCancelled: optional(isBoolean) });

/* ---- host → worker ---- */

/** The user's answer to a `consent` message. */
export const consentReply = message('fromHost', 'consentReply', { ...id, isGranted: isBoolean });

/** The worker waits for a `consentReply` before it sends rollouts to the critic. */
export const consent = request('toHost', 'consent', {
  ...id,
  plan: outline<SendPlan>({ rollouts: isNumber, approxTokens: isNumber, urls: isArray, model: isString }),
}, { replies: [consentReply] });

const isSource = either(shape({ kind: literal('text'), text: isString }), shape({ kind: literal('path'), path: isString }));

/**
 * Analyse a document: zero or more `progress`, `rollouts` chunks (each after the first two waits for a `more`) and
 * `consent` questions, then exactly one `analysed` or `failed`.
 */
export const analyse = request('fromHost', 'analyse', {
  ...document,
  fileName: isString,
  source: isSource as Guard<AnalysisSource>,
  settings: isRecord as Guard<Partial<ProfSettings>>,
  scorer: isScorerChoice,
  /** The model behind `auto`, `onnx` and `http`; null when none is configured (or allowed). */
  model: isModelConfig,
  /** Try a model that failed to load again (re-score), instead of falling back at once. */
  shouldRetryModel: optional(isBoolean),
  /** Ask the host (a `consent` message) before sending rollouts to a critic. */
  shouldConfirmSend: optional(isBoolean),
  /** 1-based lines the user is looking at: their rollouts are sent first. */
  priorityLines: optional(shape({ from: isNumber, to: isNumber })),
  /**
   * The user set the threshold: it is used as given. Otherwise the worker uses the one calibrated
   * for the scorer (read from `calibrationsDir`), else the settings' default.
   */
  isThresholdGiven: optional(isBoolean),
  calibrationsDir: optional(nullable(isString)),
}, { replies: [analysed, failed], updates: [progress, rollouts, consent] });

/** The host has taken in a chunk and is ready for the next (flow control). */
export const more = message('fromHost', 'more', id);
/** Stop a request: it ends with `failed` (isCancelled). */
export const cancel = message('fromHost', 'cancel', id);
/** The full texts of some rollouts of a kept analysis. */
export const details = request('fromHost', 'details', { ...document, rolloutIds: arrayOf(isNumber) }, { replies: [detailsReply, failed] });
/**
 * The content keys labels are matched by (`rolloutKey`, `stepKey`), made from the full texts in
 * the worker so the host never holds them: every rollout's key (`rolloutIds: null`), or those of
 * some rollouts with their step keys.
 */
export const labelKeys = request('fromHost', 'labelKeys', { ...document, rolloutIds: nullable(arrayOf(isNumber)) }, { replies: [labelKeysReply, failed] });
/** A query, an export or a comparison over a kept analysis (the Rollout Explorer, the Compare view). */
export const explore = request('fromHost', 'explore', { ...document, call: isExplorerCall }, { replies: [explored, failed] });
/**
 * The token heat of some rollouts of a kept analysis (their per-token values placed on their
 * texts), with the file's hot steps when `withHot`.
 */
export const heat = request('fromHost', 'heat', { ...document, rolloutIds: arrayOf(isNumber), withHot: isBoolean }, { replies: [heatReply, failed] });
export const forget = message('fromHost', 'forget', { documentKey: isString });
/** The model settings changed: the worker closes a model that is no longer configured (a later `analyse` opens the new one). */
export const configure = message('fromHost', 'configure', { model: isModelConfig });
/** The extension is deactivating: release the model (its worker thread) and stop. */
export const shutdown = message('fromHost', 'shutdown', {});

/** The analysis worker's channel. */
export const analysisProtocol = protocol(analyse, more, cancel, details, labelKeys, heat, explore, forget, configure, shutdown, consentReply, consent);

export type HostToWorker = Sent<typeof analysisProtocol, 'fromHost'>;
export type WorkerToHost = Sent<typeof analysisProtocol, 'toHost'>;
export type AnalyseRequest = MessageOf<typeof analyse>;
export type DetailsRequest = MessageOf<typeof details>;
export type LabelKeysRequest = MessageOf<typeof labelKeys>;
export type HeatRequest = MessageOf<typeof heat>;
/** Checks a message received by the worker. */
export const isHostToWorker = analysisProtocol.guard('fromHost');
/** Checks a message received by the host. */
export const isWorkerToHost = analysisProtocol.guard('toHost');

/** Strips the texts a host does not need from an analysed rollout. */
export function summariseRollout(rollout: AnalysedRollout): RolloutSummary {
  const { id, line, index, group, gold, rawSteps, stepScores, stepNotes, scorer, outcome, decision, falsePositive } = rollout;
  const { lowSteps, firstLowStep, weakestStep, isScored, evidence, format, questionReading, outcomeField, rewards } = rollout;
  return { id, line, index, group, gold, rawSteps, stepScores, stepNotes, scorer, outcome, decision, falsePositive, lowSteps, firstLowStep, weakestStep, isScored, evidence, format, questionReading, outcomeField, rewards };
}

/**
 * The summaries' raw step offsets as one array (per summary: the number of steps, -1 for none,
 * then start and end of each), each summary's own list set to null: what `unpackRawSteps` reads.
 */
export function packRawSteps(summaries: RolloutSummary[]): Int32Array {
  let length = summaries.length;
  for (const s of summaries) length += s.rawSteps ? 2 * s.rawSteps.length : 0;
  const packed = new Int32Array(length);
  let at = 0;
  for (const s of summaries) {
    const spans = s.rawSteps;
    packed[at++] = spans ? spans.length : -1;
    if (spans) {
      for (const span of spans) {
        packed[at++] = span.start;
        packed[at++] = span.end;
      }
    }
    s.rawSteps = null;
  }
  return packed;
}

/** Puts back the raw step offsets `packRawSteps` took from these summaries. */
export function unpackRawSteps(summaries: RolloutSummary[], packed: Int32Array): void {
  let at = 0;
  for (const s of summaries) {
    const count = packed[at++] ?? -1;
    if (count === -1) continue;
    const spans = new Array<{ start: number; end: number }>(count);
    for (let k = 0; k < count; k++, at += 2) spans[k] = { start: packed[at] as number, end: packed[at + 1] as number };
    s.rawSteps = spans;
  }
}
