/**
 * Messages between the extension host (or CLI) and the ONNX scoring worker. JSON-plain, a
 * discriminated union on `type`; every request carries an id and gets exactly one response
 * (`ready` or `scores` on success, `failed` otherwise). Both ends check incoming messages with
 * the guards below, since a worker message is untyped at runtime.
 */

/** How the worker turns the model output at a separator into a score in [0,1]. */
export interface ReadoutSpec {
  /**
   * `softmax`: the output has a class axis; score = softmax(row)[labelIndex].
   * `sigmoid`: the output is one value per token ([B,T] or [B,T,1]); score = sigmoid(value).
   */
  kind: 'softmax' | 'sigmoid';
  /** The class whose probability is the step score (softmax only). */
  labelIndex: number;
}

/** Start an inference session on a model file. */
export interface InitRequest {
  type: 'init';
  id: number;
  /** Path of `model.onnx`; a `model.onnx_data` beside it is found by onnxruntime. */
  modelPath: string;
  /** Execution providers to try, in order; `cpu` is the fallback when they fail to load. */
  providers: string[];
  /** Threads for one operator; null leaves onnxruntime's default. */
  intraOpThreads: number | null;
  /** Profile name, for error messages. */
  profile: string;
  readout: ReadoutSpec;
}

/** Run one padded batch and read the scores at the given positions. */
export interface RunRequest {
  type: 'run';
  id: number;
  /** Token ids per row, unpadded; the worker pads with `padId` and masks the padding. */
  rows: number[][];
  /** Positions (0-based, within the row) whose outputs are step scores. */
  positions: number[][];
  padId: number;
}

/**
 * Release the session and end the worker. Ending a thread that still holds a native session can
 * abort the whole process, so the host asks for this before it would ever terminate the thread.
 */
export interface ShutdownRequest {
  type: 'shutdown';
  id: number;
}

export type HostToWorkerMessage = InitRequest | RunRequest | ShutdownRequest;

/** The session is ready. */
export interface ReadyResponse {
  type: 'ready';
  id: number;
  /** The execution provider actually in use. */
  provider: string;
  /** Why the requested providers were not used, when the session fell back to cpu. */
  fallbackReason: string | null;
  inputNames: string[];
  outputName: string;
}

/** Scores for a `run` request: one array per row, one score per position. */
export interface ScoresResponse {
  type: 'scores';
  id: number;
  scores: number[][];
  /** Milliseconds spent inside `session.run`, for diagnostics. */
  runMs: number;
}

/** A request failed; the message is meant for the user. */
export interface FailedResponse {
  type: 'failed';
  id: number;
  message: string;
}

export type WorkerToHostMessage = ReadyResponse | ScoresResponse | FailedResponse;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((n) => typeof n === 'number');
}

function isNumberMatrix(value: unknown): value is number[][] {
  return Array.isArray(value) && value.every(isNumberArray);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((s) => typeof s === 'string');
}

function isReadout(value: unknown): value is ReadoutSpec {
  return (
    isRecord(value) &&
    (value.kind === 'softmax' || value.kind === 'sigmoid') &&
    typeof value.labelIndex === 'number'
  );
}

/** Checks a message received by the worker. */
export function isHostToWorkerMessage(value: unknown): value is HostToWorkerMessage {
  if (!isRecord(value) || typeof value.id !== 'number') return false;
  switch (value.type) {
    case 'init':
      return (
        typeof value.modelPath === 'string' &&
        isStringArray(value.providers) &&
        (value.intraOpThreads === null || typeof value.intraOpThreads === 'number') &&
        typeof value.profile === 'string' &&
        isReadout(value.readout)
      );
    case 'run':
      return (
        isNumberMatrix(value.rows) &&
        isNumberMatrix(value.positions) &&
        value.rows.length === value.positions.length &&
        typeof value.padId === 'number'
      );
    case 'shutdown':
      return true;
    default:
      return false;
  }
}

/** Checks a message received by the host. */
export function isWorkerToHostMessage(value: unknown): value is WorkerToHostMessage {
  if (!isRecord(value) || typeof value.id !== 'number') return false;
  switch (value.type) {
    case 'ready':
      return (
        typeof value.provider === 'string' &&
        (value.fallbackReason === null || typeof value.fallbackReason === 'string') &&
        isStringArray(value.inputNames) &&
        typeof value.outputName === 'string'
      );
    case 'scores':
      return isNumberMatrix(value.scores) && typeof value.runMs === 'number';
    case 'failed':
      return typeof value.message === 'string';
    default:
      return false;
  }
}
