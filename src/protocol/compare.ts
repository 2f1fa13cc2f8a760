/**
 * Messages between `prof-lens compare` and its side worker (`dist/compareWorker.js`), which
 * analyses one side while the command's own thread analyses the other. JSON-plain, discriminated
 * on `type`: each `analyseSide` request gets exactly one `side` or `failed`. Both ends check what
 * they receive with the guards below.
 */
import type { ProfSettings } from '../core/profSettings';
import { isScorerChoice, type ScorerChoice } from '../core/scorerChoice';
import type { CompareSide } from '../core/compare/compareSide';

/** A side as resolved: its files, the step to keep (null: all records), each file's named step. */
export interface SideSource {
  label: string;
  files: string[];
  step: number | null;
  fileSteps: (number | null)[];
}

export interface AnalyseSideRequest {
  type: 'analyseSide';
  id: number;
  source: SideSource;
  settings: Partial<ProfSettings>;
  scorer: ScorerChoice;
}

export interface SideReply {
  type: 'side';
  id: number;
  side: CompareSide;
  scorerLabel: string;
  problems: { where: string; line: number; severity: 'error' | 'warning' | 'info'; message: string }[];
  moreProblems: number;
}

export interface SideFailed {
  type: 'failed';
  id: number;
  message: string;
  /** The side cannot be compared as named (a usage error, exit 2), rather than a failure while reading it. */
  isSourceError: boolean;
}

export type CompareWorkerToHost = SideReply | SideFailed;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isAnalyseSideRequest(value: unknown): value is AnalyseSideRequest {
  if (!isRecord(value) || value['type'] !== 'analyseSide' || typeof value['id'] !== 'number') return false;
  const source = value['source'];
  return isRecord(source) && typeof source['label'] === 'string' && Array.isArray(source['files']) && source['files'].every((f) => typeof f === 'string')
    && (source['step'] === null || typeof source['step'] === 'number') && Array.isArray(source['fileSteps'])
    && isRecord(value['settings']) && isScorerChoice(value['scorer']);
}

export function isCompareWorkerToHost(value: unknown): value is CompareWorkerToHost {
  if (!isRecord(value) || typeof value['id'] !== 'number') return false;
  if (value['type'] === 'side') return isRecord(value['side']) && Array.isArray((value['side'] as Record<string, unknown>)['prompts']) && Array.isArray(value['problems']);
  return value['type'] === 'failed' && typeof value['message'] === 'string';
}
