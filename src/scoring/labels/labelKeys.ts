/**
 * The content keys the user's labels are matched by, made in the analysis worker from each
 * rollout's full texts (read back from disk for a file whose texts were not kept), so the host
 * never holds the texts. Keys of a whole file are made a slice at a time: a large file's texts are
 * never all in memory together.
 */
import { rolloutKey, stepKey } from '../../core/labels/contentKey';
import { rolloutCount } from '../../core/report/fileAnalysis';
import type { RolloutKeys } from '../../protocol/analysis';
import { fullDetails, type KeptAnalysis } from '../analysis/rolloutDetails';

/** Rollouts whose texts are read back together. */
const SLICE = 500;

/** Every rollout's key (`ids` null), or the keys and step keys of the rollouts with these ids. */
export async function labelKeysOf(kept: KeptAnalysis, ids: readonly number[] | null): Promise<RolloutKeys[]> {
  // A rollout's id is its row (0, 1, 2 … in file order).
  const wanted = ids ?? Array.from({ length: rolloutCount(kept.analysis) }, (_, row) => row);
  const keys: RolloutKeys[] = [];
  for (let start = 0; start < wanted.length; start += SLICE) {
    for (const detail of await fullDetails(kept, wanted.slice(start, start + SLICE))) {
      const key = rolloutKey(detail.prompt, detail.response);
      keys.push(ids === null ? { id: detail.id, key } : { id: detail.id, key, stepKeys: detail.steps.map((s) => stepKey(s.text)) });
    }
  }
  return keys;
}
