/**
 * Messages between a host (the CLI, the analysis worker) and the CAS worker
 * (`dist/casWorker.js`). JSON-plain, discriminated on `type`; each request carries an id. `load`
 * is answered by `ready` (the engine is loaded) or `failed`; `run` by one `result` per task, in
 * task order, as each is decided, then `done`. A result per task lets the host's time budget know
 * which task the worker is on when it stops answering.
 */
import type { CasResult, CasTask } from '../core/cas/casService';
import { arrayOf, either, isBoolean, isNumber, isString, literal, nullable, shape, type Guard } from './guards';
import { message, protocol, request, type Sent } from './messages';

const isAnswer = shape({ text: isString, isPercent: isBoolean });
const isTask: Guard<CasTask> = either(shape({ kind: literal('value'), latex: isString }), shape({ kind: literal('equal'), pred: isAnswer, gold: isAnswer })) as Guard<CasTask>;
const isResult: Guard<CasResult> = either(
  either(shape({ kind: literal('equal'), equal: nullable(isBoolean) }), shape({ kind: literal('value'), value: nullable(isNumber) })),
  shape({ kind: literal('not-decided'), reason: isString }),
) as Guard<CasResult>;

/** The engine is loaded. */
export const loaded = message('toHost', 'ready', { id: isNumber });
/** One task decided (tasks are answered in order). */
export const result = message('toHost', 'result', { id: isNumber, index: isNumber, result: isResult });
export const done = message('toHost', 'done', { id: isNumber });
export const failed = message('toHost', 'failed', { id: isNumber, message: isString });

export const load = request('fromHost', 'load', { id: isNumber }, { replies: [loaded, failed] });
export const run = request('fromHost', 'run', { id: isNumber, tasks: arrayOf(isTask) }, { replies: [done, failed], updates: [result] });

/** The CAS worker's channel. */
export const casProtocol = protocol(load, run);
export type HostToCas = Sent<typeof casProtocol, 'fromHost'>;
export type CasToHost = Sent<typeof casProtocol, 'toHost'>;
/** Checks a message received by the CAS worker. */
export const isHostToCas = casProtocol.guard('fromHost');
/** Checks a message received from the CAS worker. */
export const isCasToHost = casProtocol.guard('toHost');
