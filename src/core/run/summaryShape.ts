/**
 * Whether a value read back from the trend cache is a file summary in every field: the cache is a
 * folder of files anyone can edit (or a crash can damage), so an entry is untrusted input like any
 * other. One that is not exactly the shape a summariser writes is a miss, never a crash later.
 */
import type { FileSummary } from './runSummary';
import type { StepPart } from './stepSummary';
import { isRecord } from '../isRecord';

function isCount(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}

function isNumberOrNull(v: unknown): boolean {
  return v === null || (typeof v === 'number' && Number.isFinite(v));
}

function isCounts(v: unknown): boolean {
  return isRecord(v) && Object.values(v).every(isCount);
}

const PART_COUNTS = [
  'firstLine', 'rollouts', 'groups', 'correct', 'incorrect', 'otherOutcomes', 'allCorrectGroups', 'allIncorrectGroups',
  'kept', 'dropped', 'notRanked', 'suspectedFalsePositives', 'rankedCorrect', 'penalised', 'scoredRollouts',
] as const;

function isStepPart(v: unknown): v is StepPart {
  if (!isRecord(v) || typeof v.step !== 'number' || !Number.isFinite(v.step)) return false;
  if (!PART_COUNTS.every((k) => isCount(v[k]))) return false;
  if (!isCounts(v.byReason) || !isCounts(v.stepCounts) || !isCounts(v.scorers) || !isNumberOrNull(v.auroc)) return false;
  const chars = v.responseChars;
  return isRecord(chars) && isCount(chars.total) && isCount(chars.count) && isNumberOrNull(chars.p90);
}

/** True when `v` has every field of a `FileSummary`, each of its type. */
export function isFileSummary(v: unknown): v is FileSummary {
  if (!isRecord(v) || typeof v.file !== 'string' || !isCount(v.size) || !isCount(v.mtimeMs)) return false;
  if (!isCount(v.unstepped) || !isCount(v.unreadableLines)) return false;
  if (!Array.isArray(v.problems) || !v.problems.every((p) => typeof p === 'string')) return false;
  if (v.error !== undefined && typeof v.error !== 'string') return false;
  return Array.isArray(v.parts) && v.parts.every(isStepPart);
}
