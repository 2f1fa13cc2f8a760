/**
 * The full texts of some rollouts of an analysis, for the Rollout View and the panels. An analysis
 * of text from the editor keeps them; one of a file streamed from disk does not (a large file's
 * texts would not fit), so they are read back from the rollout's line on disk.
 */
import type { FileAnalysis } from '../core/analysis';
import { summariseRollout, type RolloutDetail } from '../protocol/analysis';
import { readRolloutTexts, type LineIndex } from './analysePath';

/** An analysis as the worker keeps it between requests. */
export interface KeptAnalysis {
  analysis: FileAnalysis;
  /** The file it was read from, and where its lines are, when its texts were not kept. */
  disk: { path: string; lines: LineIndex } | null;
}

/** The rollouts with these ids, with their texts; throws when the file on disk changed under them. */
export async function rolloutDetails(kept: KeptAnalysis, ids: readonly number[]): Promise<RolloutDetail[]> {
  const wanted = new Set(ids);
  const rollouts = kept.analysis.rollouts.filter((r) => wanted.has(r.id));
  if (!kept.disk) return rollouts.map((r) => ({ ...summariseRollout(r), prompt: r.prompt, response: r.response, steps: r.steps }));
  const texts = await readRolloutTexts(kept.disk.path, kept.disk.lines, rollouts, kept.analysis.settings);
  return rollouts.map((r, i) => {
    const text = texts[i];
    if (!text || text.group !== r.group) {
      throw new Error(`${kept.disk?.path} changed on disk since it was analysed (line ${r.line} is not the rollout it was); it is analysed again when the editor reloads it`);
    }
    return { ...summariseRollout(r), prompt: text.prompt, response: text.response, steps: text.steps };
  });
}
