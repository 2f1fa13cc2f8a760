/**
 * Messages between the extension host and the analysis worker (`dist/analysisWorker.js`).
 * JSON-plain, discriminated on `type`. The host sends `analyse` requests; the worker answers each
 * with zero or more `progress` and `rollouts` chunks and then exactly one `analysed` or `failed`;
 * after each chunk the worker waits for a `more` request, so the host takes results in at its own
 * pace and its event loop never has a burst of messages to deserialise.
 * `details` requests get exactly one `details` or `failed`. Results arrive in chunks so the host
 * never deserialises a whole 40 MB file's analysis in one event-loop turn.
 */
import type { AnalysedRollout, FileAnalysis } from '../core/fileAnalysis';
import type { Diagnostic } from '../core/model';
import type { ThresholdSource } from '../core/evaluation/thresholdChoice';
import type { ProfSettings } from '../core/profSettings';
import { isScorerChoice, type ScorerChoice } from '../core/scorerChoice';
import { isEndpointStatusList, type EndpointStatus } from './endpoints';
import { isModelConfig, type ModelConfig } from './modelConfig';
import { isExplorerAnswer, isExplorerCall, type ExploreRequest, type ExploredMessage } from './explorer';

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

export interface AnalyseRequest {
  type: 'analyse';
  requestId: number;
  /** Identifies the document (its URI) so `details` can refer back to this analysis. */
  documentKey: string;
  fileName: string;
  source: AnalysisSource;
  settings: Partial<ProfSettings>;
  scorer: ScorerChoice;
  /** The model behind `auto`, `onnx` and `http`; null when none is configured (or allowed). */
  model: ModelConfig | null;
  /** Try a model that failed to load again (re-score), instead of falling back at once. */
  shouldRetryModel?: boolean;
  /** Ask the host (a `consent` message) before sending rollouts to a critic. */
  shouldConfirmSend?: boolean;
  /** 1-based lines the user is looking at: their rollouts are sent first. */
  priorityLines?: { from: number; to: number };
  /**
   * The user set the threshold: it is used as given. Otherwise the worker uses the one calibrated
   * for the scorer (read from `calibrationsDir`), else the settings' default.
   */
  isThresholdGiven?: boolean;
  calibrationsDir?: string | null;
}

/** The host has taken in a chunk and is ready for the next (flow control). */
export interface MoreRequest {
  type: 'more';
  requestId: number;
}

export interface CancelRequest {
  type: 'cancel';
  requestId: number;
}

export interface DetailsRequest {
  type: 'details';
  requestId: number;
  documentKey: string;
  rolloutIds: number[];
}

/**
 * The content keys labels are matched by (`rolloutKey`, `stepKey`), made from the full texts in
 * the worker so the host never holds them: every rollout's key (`rolloutIds: null`), or those of
 * some rollouts with their step keys.
 */
export interface LabelKeysRequest {
  type: 'labelKeys';
  requestId: number;
  documentKey: string;
  rolloutIds: number[] | null;
}

export interface ForgetRequest {
  type: 'forget';
  documentKey: string;
}

/**
 * The model settings changed: the worker closes a model that is no longer configured (a later
 * `analyse` opens the new one).
 */
export interface ConfigureRequest {
  type: 'configure';
  model: ModelConfig | null;
}

/** The extension is deactivating: release the model (its worker thread) and stop. */
export interface ShutdownRequest {
  type: 'shutdown';
}

/** The user's answer to a `consent` message. */
export interface ConsentReply {
  type: 'consentReply';
  requestId: number;
  isGranted: boolean;
}

export type HostToWorker =
  | AnalyseRequest | MoreRequest | CancelRequest | DetailsRequest | LabelKeysRequest | ForgetRequest | ConfigureRequest | ShutdownRequest | ConsentReply
  | ExploreRequest;

export interface ProgressMessage {
  type: 'progress';
  requestId: number;
  done: number;
  total: number;
  /** What the worker is doing, when a user would want to know (loading a model, scoring with it). */
  activity?: string;
  /** Each endpoint's state while a served model scores. */
  endpoints?: EndpointStatus[];
}

export interface RolloutsMessage {
  type: 'rollouts';
  requestId: number;
  rollouts: RolloutSummary[];
}

export interface AnalysedMessage {
  type: 'analysed';
  requestId: number;
  summary: AnalysisSummary;
}

export interface DetailsMessage {
  type: 'details';
  requestId: number;
  rollouts: RolloutDetail[];
}

/** One rollout's content keys; `stepKeys` only when the rollout was asked for by id. */
export interface RolloutKeys {
  id: number;
  key: string;
  stepKeys?: string[];
}

export interface LabelKeysMessage {
  type: 'labelKeys';
  requestId: number;
  keys: RolloutKeys[];
}

export interface FailedMessage {
  type: 'failed';
  requestId: number;
  message: string;
  isCancelled: boolean;
}

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

/** The worker waits for a `consentReply` before it sends rollouts to the critic. */
export interface ConsentMessage {
  type: 'consent';
  requestId: number;
  plan: SendPlan;
}

export type WorkerToHost = ProgressMessage | RolloutsMessage | AnalysedMessage | DetailsMessage | LabelKeysMessage | FailedMessage | ConsentMessage | ExploredMessage;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function hasNumber(value: Record<string, unknown>, key: string): boolean {
  return typeof value[key] === 'number';
}

function isSource(source: unknown): boolean {
  if (!isRecord(source)) return false;
  return source['kind'] === 'text' ? typeof source['text'] === 'string' : typeof source['path'] === 'string';
}

/** Checks a message received by the worker. */
export function isHostToWorker(value: unknown): value is HostToWorker {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'analyse':
      return hasNumber(value, 'requestId') && typeof value['documentKey'] === 'string'
        && typeof value['fileName'] === 'string' && isSource(value['source'])
        && isRecord(value['settings']) && isScorerChoice(value['scorer'])
        && isModelConfig(value['model']);
    case 'more':
    case 'cancel':
      return hasNumber(value, 'requestId');
    case 'details':
      return hasNumber(value, 'requestId') && typeof value['documentKey'] === 'string' && Array.isArray(value['rolloutIds']);
    case 'labelKeys':
      return hasNumber(value, 'requestId') && typeof value['documentKey'] === 'string'
        && (value['rolloutIds'] === null || (Array.isArray(value['rolloutIds']) && value['rolloutIds'].every((id) => typeof id === 'number')));
    case 'forget':
      return typeof value['documentKey'] === 'string';
    case 'configure':
      return isModelConfig(value['model']);
    case 'shutdown':
      return true;
    case 'consentReply':
      return hasNumber(value, 'requestId') && typeof value['isGranted'] === 'boolean';
    case 'explore':
      return hasNumber(value, 'requestId') && typeof value['documentKey'] === 'string' && isExplorerCall(value['call']);
    default:
      return false;
  }
}

/** Checks a message received by the host. */
export function isWorkerToHost(value: unknown): value is WorkerToHost {
  if (!isRecord(value) || !hasNumber(value, 'requestId')) return false;
  switch (value['type']) {
    case 'progress':
      return hasNumber(value, 'done') && hasNumber(value, 'total') && (value['endpoints'] === undefined || isEndpointStatusList(value['endpoints']));
    case 'consent':
      return isRecord(value['plan']) && hasNumber(value['plan'], 'rollouts') && hasNumber(value['plan'], 'approxTokens')
        && Array.isArray(value['plan']['urls']) && typeof value['plan']['model'] === 'string';
    case 'rollouts':
    case 'details':
      return Array.isArray(value['rollouts']);
    case 'labelKeys':
      return Array.isArray(value['keys']);
    case 'analysed':
      return isRecord(value['summary']);
    case 'explored':
      return isExplorerAnswer(value['answer']);
    case 'failed':
      return typeof value['message'] === 'string';
    default:
      return false;
  }
}

/** Strips the texts a host does not need from an analysed rollout. */
export function summariseRollout(rollout: AnalysedRollout): RolloutSummary {
  const { id, line, index, group, gold, rawSteps, stepScores, stepNotes, scorer, outcome, decision, falsePositive } = rollout;
  const { lowSteps, firstLowStep, weakestStep, isScored, evidence, format, questionReading, outcomeField, rewards } = rollout;
  return { id, line, index, group, gold, rawSteps, stepScores, stepNotes, scorer, outcome, decision, falsePositive, lowSteps, firstLowStep, weakestStep, isScored, evidence, format, questionReading, outcomeField, rewards };
}
