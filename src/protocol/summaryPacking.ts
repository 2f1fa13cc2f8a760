/**
 * A chunk of rollout summaries' step scores and group keys, sent apart from the summaries' objects.
 * Cloned one by one, the step scores (a list of numbers per rollout) were the largest cost of
 * posting a chunk, and each group key (the whole prompt) was copied once per rollout of its group;
 * packed, the scores travel in one transferred array and each key once per chunk.
 */
import type { RolloutSummary } from './analysis';

/** The packed part of a chunk: per summary its group's index in `groups`, its number of step scores, then the scores (NaN for a step not scored). */
export interface PackedScores {
  columns: Float64Array;
  groups: string[];
}

const NO_SCORES: (number | null)[] = [];

/**
 * Takes each summary's step scores and group key into one array, leaving an empty list and an
 * empty key in their place (the fields keep their order); null, and nothing taken, when a score
 * is NaN, which could not be told from a step not scored.
 */
export function packScores(summaries: RolloutSummary[]): PackedScores | null {
  let length = 0;
  for (const s of summaries) {
    for (const score of s.stepScores) if (score !== null && Number.isNaN(score)) return null;
    length += 2 + s.stepScores.length;
  }
  const columns = new Float64Array(length);
  const groups: string[] = [];
  const groupIndex = new Map<string, number>();
  let at = 0;
  for (const s of summaries) {
    let index = groupIndex.get(s.group);
    if (index === undefined) {
      index = groups.length;
      groupIndex.set(s.group, index);
      groups.push(s.group);
    }
    columns[at++] = index;
    columns[at++] = s.stepScores.length;
    for (const score of s.stepScores) columns[at++] = score ?? Number.NaN;
    s.stepScores = NO_SCORES;
    s.group = '';
  }
  return { columns, groups };
}

/** Puts back what `packScores` took from these summaries (the same worker packed them: a summary the part does not reach is left as it came). */
export function unpackScores(summaries: RolloutSummary[], packed: PackedScores): void {
  const { columns, groups } = packed;
  let at = 0;
  for (const s of summaries) {
    const group = groups[columns[at] as number];
    const count = columns[at + 1] as number;
    if (group === undefined || !(count >= 0) || at + 2 + count > columns.length) return;
    at += 2;
    const scores = new Array<number | null>(count);
    for (let k = 0; k < count; k++, at++) {
      const score = columns[at] as number;
      scores[k] = Number.isNaN(score) ? null : score;
    }
    s.group = group;
    s.stepScores = scores;
  }
}
