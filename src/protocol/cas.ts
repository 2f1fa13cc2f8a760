/**
 * Messages between a host (the CLI, the analysis worker) and the CAS worker
 * (`dist/casWorker.js`). JSON-plain, discriminated on `type`; each request carries an id. `load`
 * is answered by `ready` (the engine is loaded) or `failed`; `run` by one `result` per task, in
 * task order, as each is decided, then `done`. A result per task lets the host's time budget know
 * which task the worker is on when it stops answering.
 */
import type { CasResult, CasTask } from '../core/cas/casService';

export type HostToCas =
  | { type: 'load'; id: number }
  | { type: 'run'; id: number; tasks: CasTask[] };

export type CasToHost =
  | { type: 'ready'; id: number }
  | { type: 'result'; id: number; index: number; result: CasResult }
  | { type: 'done'; id: number }
  | { type: 'failed'; id: number; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAnswer(value: unknown): boolean {
  return isRecord(value) && typeof value['text'] === 'string' && typeof value['isPercent'] === 'boolean';
}

function isTask(value: unknown): value is CasTask {
  if (!isRecord(value)) return false;
  if (value['kind'] === 'value') return typeof value['latex'] === 'string';
  return value['kind'] === 'equal' && isAnswer(value['pred']) && isAnswer(value['gold']);
}

function isResult(value: unknown): value is CasResult {
  if (!isRecord(value)) return false;
  switch (value['kind']) {
    case 'equal':
      return value['equal'] === null || typeof value['equal'] === 'boolean';
    case 'value':
      return value['value'] === null || typeof value['value'] === 'number';
    case 'not-decided':
      return typeof value['reason'] === 'string';
    default:
      return false;
  }
}

/** Checks a message received by the CAS worker. */
export function isHostToCas(value: unknown): value is HostToCas {
  if (!isRecord(value) || typeof value['id'] !== 'number') return false;
  if (value['type'] === 'load') return true;
  return value['type'] === 'run' && Array.isArray(value['tasks']) && value['tasks'].every(isTask);
}

/** Checks a message received from the CAS worker. */
export function isCasToHost(value: unknown): value is CasToHost {
  if (!isRecord(value) || typeof value['id'] !== 'number') return false;
  switch (value['type']) {
    case 'ready':
    case 'done':
      return true;
    case 'result':
      return typeof value['index'] === 'number' && isResult(value['result']);
    case 'failed':
      return typeof value['message'] === 'string';
    default:
      return false;
  }
}
