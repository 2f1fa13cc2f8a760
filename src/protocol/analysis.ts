/**
 * Messages between the extension host and the analysis worker (`dist/analysisWorker.js`).
 * JSON-plain, discriminated on `type`. The host sends `analyse` requests; the worker answers each
 * with zero or more `progress` and `rollouts` chunks and then exactly one `analysed` or `failed`;
 * after each chunk the worker waits for a `more` request, so the host takes results in at its own
 * pace and its event loop never has a burst of messages to deserialise.
 * `details` requests get exactly one `details` or `failed`. Results arrive in chunks so the host
 * never deserialises a whole 40 MB file's analysis in one event-loop turn.
 */
import type { AnalysedRollout, FileAnalysis } from '../core/analysis';
import type { Diagnostic } from '../core/model';
import type { ProfSettings } from '../core/settings';

/** Which scorer chain the worker should use. */
export type ScorerChoice = 'auto' | 'file' | 'checker';
export const SCORER_CHOICES: readonly ScorerChoice[] = ['auto', 'file', 'checker'];

/** What the host knows about one rollout: everything the decorations, hovers and Problems need. */
export type RolloutSummary = Pick<
  AnalysedRollout,
  | 'id' | 'line' | 'index' | 'group' | 'gold' | 'rawSteps' | 'stepScores' | 'stepNotes' | 'scorer'
  | 'outcome' | 'decision' | 'firstLowStep' | 'falsePositive'
>;

/** The full text of a rollout, fetched only when the Rollout View shows it. */
export type RolloutDetail = RolloutSummary & Pick<AnalysedRollout, 'prompt' | 'response' | 'steps'>;

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
  /** 1-based lines the user is looking at: their rollouts are sent first. */
  priorityLines?: { from: number; to: number };
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

export interface ForgetRequest {
  type: 'forget';
  documentKey: string;
}

export type HostToWorker = AnalyseRequest | MoreRequest | CancelRequest | DetailsRequest | ForgetRequest;

export interface ProgressMessage {
  type: 'progress';
  requestId: number;
  done: number;
  total: number;
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

export interface FailedMessage {
  type: 'failed';
  requestId: number;
  message: string;
  isCancelled: boolean;
}

export type WorkerToHost = ProgressMessage | RolloutsMessage | AnalysedMessage | DetailsMessage | FailedMessage;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function hasNumber(value: Record<string, unknown>, key: string): boolean {
  return typeof value[key] === 'number';
}

/** Checks a message received by the worker. */
export function isHostToWorker(value: unknown): value is HostToWorker {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'analyse': {
      const source = value['source'];
      return hasNumber(value, 'requestId') && typeof value['documentKey'] === 'string'
        && typeof value['fileName'] === 'string' && isRecord(source)
        && (source['kind'] === 'text' ? typeof source['text'] === 'string' : typeof source['path'] === 'string')
        && isRecord(value['settings']) && SCORER_CHOICES.includes(value['scorer'] as ScorerChoice);
    }
    case 'more':
    case 'cancel':
      return hasNumber(value, 'requestId');
    case 'details':
      return hasNumber(value, 'requestId') && typeof value['documentKey'] === 'string' && Array.isArray(value['rolloutIds']);
    case 'forget':
      return typeof value['documentKey'] === 'string';
    default:
      return false;
  }
}

/** Checks a message received by the host. */
export function isWorkerToHost(value: unknown): value is WorkerToHost {
  if (!isRecord(value) || !hasNumber(value, 'requestId')) return false;
  switch (value['type']) {
    case 'progress':
      return hasNumber(value, 'done') && hasNumber(value, 'total');
    case 'rollouts':
    case 'details':
      return Array.isArray(value['rollouts']);
    case 'analysed':
      return isRecord(value['summary']);
    case 'failed':
      return typeof value['message'] === 'string';
    default:
      return false;
  }
}

/** Strips the texts a host does not need from an analysed rollout. */
export function summariseRollout(rollout: AnalysedRollout): RolloutSummary {
  const { id, line, index, group, gold, rawSteps, stepScores, stepNotes, scorer, outcome, decision, firstLowStep, falsePositive } = rollout;
  return { id, line, index, group, gold, rawSteps, stepScores, stepNotes, scorer, outcome, decision, firstLowStep, falsePositive };
}
