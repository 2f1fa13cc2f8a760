/**
 * Messages between the extension host (or CLI) and the ONNX scoring worker. JSON-plain, a
 * discriminated union on `type`; every request carries an id and gets exactly one response
 * (`ready` or `scores` on success, `failed` otherwise). Both ends check incoming messages with
 * the guards below, since a worker message is untyped at runtime.
 */
import { arrayOf, isNumber, isString, literal, nullable, shape, type Guard } from './guards';
import { message, protocol, request, type MessageOf, type Sent } from './messages';

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

const isNumberMatrix = arrayOf(arrayOf(isNumber));
const isReadout: Guard<ReadoutSpec> = shape({ kind: literal('softmax', 'sigmoid'), labelIndex: isNumber });

/** The session is ready. */
export const ready = message('toHost', 'ready', {
  id: isNumber,
  /** The execution provider actually in use. */
  provider: isString,
  /** Why the requested providers were not used, when the session fell back to cpu. */
  fallbackReason: nullable(isString),
  inputNames: arrayOf(isString),
  outputName: isString,
});
/** Scores for a `run` request: one array per row, one score per position. */
export const scores = message('toHost', 'scores', {
  id: isNumber,
  scores: isNumberMatrix,
  /** Milliseconds spent inside `session.run`, for diagnostics. */
  runMs: isNumber,
});
/** A request failed; the message is meant for the user. */
export const failed = message('toHost', 'failed', { id: isNumber, message: isString });

/** Start an inference session on a model file. */
export const init = request('fromHost', 'init', {
  id: isNumber,
  /** Path of `model.onnx`; a `model.onnx_data` beside it is found by onnxruntime. */
  modelPath: isString,
  /** Execution providers to try, in order; `cpu` is the fallback when they fail to load. */
  providers: arrayOf(isString),
  /** Threads for one operator; null leaves onnxruntime's default. */
  intraOpThreads: nullable(isNumber),
  /** Profile name, for error messages. */
  profile: isString,
  readout: isReadout,
}, { replies: [ready, failed] });

/** Run one padded batch and read the scores at the given positions. */
export const run = request('fromHost', 'run', {
  id: isNumber,
  /** Token ids per row, unpadded; the worker pads with `padId` and masks the padding. */
  rows: isNumberMatrix,
  /** Positions (0-based, within the row) whose outputs are step scores. */
  positions: isNumberMatrix,
  padId: isNumber,
}, { replies: [scores, failed] }, (m) => m.rows.length === m.positions.length);

/**
 * Release the session and end the worker. Ending a thread that still holds a native session can
 * abort the whole process, so the host asks for this before it would ever terminate the thread.
 */
export const shutdown = message('fromHost', 'shutdown', { id: isNumber });

/** The ONNX scoring worker's channel. */
export const onnxProtocol = protocol(init, run, shutdown);
export type InitRequest = MessageOf<typeof init>;
export type RunRequest = MessageOf<typeof run>;
export type HostToWorkerMessage = Sent<typeof onnxProtocol, 'fromHost'>;
export type WorkerToHostMessage = Sent<typeof onnxProtocol, 'toHost'>;
export type ReadyResponse = MessageOf<typeof ready>;
/** Checks a message received by the worker. */
export const isHostToWorkerMessage = onnxProtocol.guard('fromHost');
/** Checks a message received by the host. */
export const isWorkerToHostMessage = onnxProtocol.guard('toHost');
