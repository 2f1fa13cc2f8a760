/**
 * The full texts of some rollouts of an analysis, for the Rollout View and the panels. An analysis
 * of text from the editor keeps them; one of a file streamed from disk does not (a large file's
 * texts would not fit), so they are read back from the rollout's line on disk.
 */
import type { AnalysedFile } from '../inputs/analysedFile';
import type { AdaptContext } from '../../core/formats/trainers';
import type { AnalysedRollout, FileAnalysis } from '../../core/report/fileAnalysis';
import { summariseRollout, type AnalysisSource, type RolloutDetail } from '../../protocol/analysis';
import { readRolloutTexts, type LineIndex } from './analysePath';

/**
 * The most characters of one text (the prompt, a step, a response without steps) the host
 * receives: a hostile 200 MB line must not reach the extension host, or the Rollout View, whole.
 */
export const MAX_DETAIL_TEXT_CHARS = 200_000;

/** The most characters of step text one rollout sends in all; later steps are named, not sent. */
export const MAX_DETAIL_STEP_CHARS = 2_000_000;

/** `text`, cut at `limit` characters with a note saying how much was left out and where to read it. */
function capText(text: string, limit: number, what: string): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n… [${(text.length - limit).toLocaleString('en-US')} more characters of this ${what} not shown: it is longer than ${limit.toLocaleString('en-US')} characters; the raw file has it whole]`;
}

/** A rollout's texts, bounded: each text by MAX_DETAIL_TEXT_CHARS, all steps together by MAX_DETAIL_STEP_CHARS. */
export function capDetail(detail: RolloutDetail): RolloutDetail {
  let budget = MAX_DETAIL_STEP_CHARS;
  const steps = detail.steps.map((step) => {
    const limit = Math.max(0, Math.min(MAX_DETAIL_TEXT_CHARS, budget));
    budget -= Math.min(step.text.length, limit);
    if (step.text.length <= limit) return step;
    const text = limit === 0
      ? `[step not shown: the steps before it already fill ${MAX_DETAIL_STEP_CHARS.toLocaleString('en-US')} characters; the raw file has it]`
      : capText(step.text, limit, 'step');
    return { ...step, text };
  });
  const prompt = capText(detail.prompt, MAX_DETAIL_TEXT_CHARS, 'prompt');
  return { ...detail, prompt, response: capText(detail.response, MAX_DETAIL_TEXT_CHARS, 'response'), steps };
}

/** An analysis as the worker keeps it between requests. */
export interface KeptAnalysis {
  analysis: FileAnalysis;
  /** The file it was read from, and where its lines are, when its texts were not kept. */
  disk: { path: string; lines: LineIndex } | null;
  /** The file on disk it analysed and a hash of the bytes it read (absent for the editor's text). */
  file?: AnalysedFile;
  /** What its records needed beyond the file (a tokenizer), to read them again as it read them. */
  context?: AdaptContext;
  /** The editor's text it analysed, when it was not read from disk (its records are read again from it). */
  text?: string;
}

/**
 * What is kept of an analysis of `source` for the requests that follow it (details, the Explorer):
 * where its lines are when its texts were not kept, which file and bytes it read, and what its
 * records needed beyond the file.
 */
export function keptAnalysisOf(source: AnalysisSource, result: { analysis: FileAnalysis; lines?: LineIndex; file?: AnalysedFile; context?: AdaptContext }): KeptAnalysis {
  const disk = source.kind === 'path' && result.lines ? { path: source.path, lines: result.lines } : null;
  const text = source.kind === 'text' ? { text: source.text } : {};
  return { analysis: result.analysis, disk, ...text, ...(result.file ? { file: result.file } : {}), ...(result.context ? { context: result.context } : {}) };
}

/** The rollouts with these ids, with their texts (capped); throws when the file on disk changed under them. */
export async function rolloutDetails(kept: KeptAnalysis, ids: readonly number[]): Promise<RolloutDetail[]> {
  return (await fullDetails(kept, ids)).map(capDetail);
}

/** The rollouts with these ids, with their texts whole (for content keys, never sent to the host as they are). */
export async function fullDetails(kept: KeptAnalysis, ids: readonly number[]): Promise<RolloutDetail[]> {
  const rollouts = rolloutsWithIds(kept.analysis, ids);
  if (!kept.disk) return rollouts.map((r) => ({ ...summariseRollout(r), prompt: r.prompt, response: r.response, steps: r.steps, responseTurns: r.responseTurns, ...(r.promptReading ? { promptReading: r.promptReading } : {}) }));
  const texts = await readRolloutTexts(kept.disk.path, kept.disk.lines, rollouts, kept.analysis.settings);
  return rollouts.map((r, i) => {
    const text = texts[i];
    if (!text || text.group !== r.group) {
      throw new Error(`${kept.disk?.path} changed on disk since it was analysed (line ${r.line} is not the rollout it was); it is analysed again when the editor reloads it`);
    }
    return { ...summariseRollout(r), prompt: text.prompt, response: text.response, steps: text.steps, responseTurns: text.responseTurns, ...(text.promptReading ? { promptReading: text.promptReading } : {}) };
  });
}

/**
 * The analysis's rollouts with these ids, once each, in file order; from its columns when it
 * holds them (only these rollouts are made), else from its list.
 */
function rolloutsWithIds(analysis: FileAnalysis, ids: readonly number[]): AnalysedRollout[] {
  const rows = analysis.rows;
  if (!rows) {
    const wanted = new Set(ids);
    return analysis.rollouts.filter((r) => wanted.has(r.id));
  }
  // A rollout's id is its row.
  const sorted = [...new Set(ids)].filter((id) => Number.isInteger(id) && id >= 0 && id < rows.count).sort((a, b) => a - b);
  return sorted.map((row) => rows.at(row));
}
