/**
 * Messages between a host (a command, the analysis or run worker) and the trace decoder worker
 * (`dist/traceDecoderWorker.js`), which turns the token ids of open-instruct's traces back into
 * text with a tokenizer found through the run's metadata. JSON-plain, discriminated on `type`.
 * `decode` names the tokenizer's files (the worker loads them once, and again after a restart)
 * and the lists of ids; it is answered by one `text` per list, in order, then `done`, or by
 * `failed`. A message per list lets the host's time budget know which list the worker is on when
 * it stops answering.
 */
import { arrayOf, isArray, isNumber, isString, nullable } from './guards';
import { message, protocol, request, type Sent } from './messages';

/** One list's text, or why it has none (too long, not a list the tokenizer can decode). */
export const text = message('toHost', 'text', { id: isNumber, index: isNumber, text: nullable(isString), problem: nullable(isString) });
export const done = message('toHost', 'done', { id: isNumber });
export const failed = message('toHost', 'failed', { id: isNumber, message: isString });

export const decode = request('fromHost', 'decode', {
  id: isNumber,
  /** `tokenizer.json`, checked by the host (a regular file of bounded size) and again by the worker. */
  tokenizerPath: isString,
  tokenizerConfigPath: nullable(isString),
  /** Lists of token ids (non-negative integers, checked by the host). */
  items: arrayOf(isArray as (value: unknown) => value is number[]),
  /** Characters one list may decode to. */
  maxChars: isNumber,
}, { replies: [done, failed], updates: [text] });

/** The trace decoder worker's channel. */
export const traceDecoderProtocol = protocol(decode);
export type HostToTraceDecoder = Sent<typeof traceDecoderProtocol, 'fromHost'>;
export type TraceDecoderToHost = Sent<typeof traceDecoderProtocol, 'toHost'>;
/** Checks a message received by the trace decoder worker. */
export const isHostToTraceDecoder = traceDecoderProtocol.guard('fromHost');
/** Checks a message received from the trace decoder worker. */
export const isTraceDecoderToHost = traceDecoderProtocol.guard('toHost');
