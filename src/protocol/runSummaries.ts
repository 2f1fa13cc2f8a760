/**
 * Messages between whoever summarises a training run (the CLI, the editor's Run Dashboard) and
 * its summary workers (`dist/runWorker.js`). JSON-plain, discriminated on `type`. Each
 * `summarise` request gets zero or more `progress` messages and then exactly one `summarised` or
 * `failed`; `cancel` makes a running request end with `failed` (isCancelled). Both ends check
 * what they receive with the guards below.
 */
import type { ProfSettings } from '../core/profSettings';
import type { FileFigures } from '../core/run/runSummary';
import { isScorerChoice } from '../core/scorerChoice';
import { isModelConfig } from './modelConfig';
import { isArray, isBoolean, isCount, isNumber, isRecord, isString, optional, outline, type Guard } from './guards';
import { message, protocol, request, type MessageOf, type Sent } from './messages';

const isId = isCount;

export const summaryProgress = message('toHost', 'progress', {
  id: isId,
  /** Bytes of the file read so far. */
  bytes: isNumber,
});
export const summarised = message('toHost', 'summarised', {
  id: isId,
  figures: outline<FileFigures>({ parts: isArray, problems: isArray }),
  /** The scorer chain's label, e.g. `file, else checker`. */
  scorerLabel: isString,
  /** Why the configured model did not score the file (the checker did), when it did not. */
  modelError: optional(isString),
});
export const summaryFailed = message('toHost', 'failed', { id: isId, message: isString, isCancelled: isBoolean });

/** Summarise one file of a run: zero or more `progress`, then exactly one `summarised` or `failed`. */
export const summarise = request('fromHost', 'summarise', {
  id: isId,
  /** The file to read (a path on this machine). */
  file: isString,
  settings: isRecord as Guard<Partial<ProfSettings>>,
  scorer: isScorerChoice,
  /** The model behind `auto`, `onnx` and `http`; null when none is configured. */
  model: isModelConfig,
}, { replies: [summarised, summaryFailed], updates: [summaryProgress] });
/** A running request ends with `failed` (isCancelled). */
export const cancelSummary = message('fromHost', 'cancel', { id: isId });
/** Release the model (if one is open) and end the thread. */
export const shutdownSummaryWorker = message('fromHost', 'shutdown', {});

/** The run summary workers' channel. */
export const summaryProtocol = protocol(summarise, cancelSummary, shutdownSummaryWorker);
export type SummariseRequest = MessageOf<typeof summarise>;
export type HostToSummaryWorker = Sent<typeof summaryProtocol, 'fromHost'>;
export type SummaryWorkerToHost = Sent<typeof summaryProtocol, 'toHost'>;
/** Checks a message the worker receives. */
export const isHostToSummaryWorker = summaryProtocol.guard('fromHost');
/** Checks a message the host receives. */
export const isSummaryWorkerToHost = summaryProtocol.guard('toHost');
