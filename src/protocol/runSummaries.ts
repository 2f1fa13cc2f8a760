/**
 * Messages between whoever summarises a training run (the CLI, the editor's Run Dashboard) and
 * its summary workers (`dist/runWorker.js`). JSON-plain, discriminated on `type`. Each
 * `summarise` request gets zero or more `progress` messages and then exactly one `summarised` or
 * `failed`; `cancel` makes a running request end with `failed` (isCancelled). Both ends check
 * what they receive with the guards below.
 */
import type { ProfSettings } from '../core/profSettings';
import type { FileFigures } from '../core/run/runSummary';
import { isScorerChoice, type ScorerChoice } from '../core/scorerChoice';
import { isModelConfig, type ModelConfig } from './modelConfig';

export interface SummariseRequest {
  type: 'summarise';
  id: number;
  /** The file to read (a path on this machine). */
  file: string;
  settings: Partial<ProfSettings>;
  scorer: ScorerChoice;
  /** The model behind `auto`, `onnx` and `http`; null when none is configured. */
  model: ModelConfig | null;
}

export interface CancelSummaryRequest {
  type: 'cancel';
  id: number;
}

/** Release the model (if one is open) and end the thread. */
export interface ShutdownSummaryWorker {
  type: 'shutdown';
}

export type HostToSummaryWorker = SummariseRequest | CancelSummaryRequest | ShutdownSummaryWorker;

export interface SummaryProgress {
  type: 'progress';
  id: number;
  /** Bytes of the file read so far. */
  bytes: number;
}

export interface SummaryResult {
  type: 'summarised';
  id: number;
  figures: FileFigures;
  /** The scorer chain's label, e.g. `file, else checker`. */
  scorerLabel: string;
  /** Why the configured model did not score the file (the checker did), when it did not. */
  modelError?: string;
}

export interface SummaryFailed {
  type: 'failed';
  id: number;
  message: string;
  isCancelled: boolean;
}

export type SummaryWorkerToHost = SummaryProgress | SummaryResult | SummaryFailed;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** Checks a message the worker receives. */
export function isHostToSummaryWorker(value: unknown): value is HostToSummaryWorker {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'summarise':
      return isId(value['id']) && typeof value['file'] === 'string' && isRecord(value['settings'])
        && isScorerChoice(value['scorer']) && isModelConfig(value['model']);
    case 'cancel':
      return isId(value['id']);
    case 'shutdown':
      return true;
    default:
      return false;
  }
}

/** Checks a message the host receives; figures are checked for their outline (the worker built them). */
export function isSummaryWorkerToHost(value: unknown): value is SummaryWorkerToHost {
  if (!isRecord(value) || !isId(value['id'])) return false;
  switch (value['type']) {
    case 'progress':
      return typeof value['bytes'] === 'number';
    case 'summarised': {
      const figures = value['figures'];
      return isRecord(figures) && Array.isArray(figures['parts']) && Array.isArray(figures['problems']) && typeof value['scorerLabel'] === 'string'
        && (value['modelError'] === undefined || typeof value['modelError'] === 'string');
    }
    case 'failed':
      return typeof value['message'] === 'string' && typeof value['isCancelled'] === 'boolean';
    default:
      return false;
  }
}
