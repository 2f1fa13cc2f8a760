/**
 * Token heat of a kept analysis, in the analysis worker: each rollout's record is read again (from
 * its line on disk, or from the editor's text the analysis was of), its per-token values placed on
 * its response (`core/tokens/`), and its tint runs mapped to the raw line. The file's hot steps are
 * worked out once per analysis, over its first MAX_HEAT_ROLLOUTS rollouts; the heat of the
 * rollouts a surface asks for is kept (up to KEPT_ROLLOUTS) for the hovers that follow.
 */
import { eachRollout, type AnalysedRollout } from '../../core/report/fileAnalysis';
import type { Rollout, SourceRecord } from '../../core/model';
import { prepareRecord, type PreparedRollout } from '../../core/formats/prepareRollout';
import { readText } from '../../core/read/reader';
import { decodedToRaw, locateString } from '../../core/read/rawJson';
import { responseTokens, type ResponseTokens } from '../../core/tokens/tokenValues';
import { placeTokenBytes, placeTokenTexts, type Placement } from '../../core/tokens/tokenPlacement';
import { responseHeat, type HeatRun } from '../../core/tokens/tokenHeat';
import type { HeatAnswer, RolloutHeat } from '../../core/tokens/rolloutHeat';
import { hotSteps, type HeatedStep, type HotStep } from '../../core/tokens/hotSteps';
import { readRecordsAgain } from '../analysis/analysePath';
import type { KeptAnalysis } from '../analysis/rolloutDetails';
import { vocabFor } from './tokenVocab';

/** The rollouts whose steps the hot list ranks. */
export const MAX_HEAT_ROLLOUTS = 20_000;
/** Rollouts' heat kept for later requests. */
const KEPT_ROLLOUTS = 2_000;

type Wanted = Pick<AnalysedRollout, 'id' | 'line' | 'index' | 'group'> & { item?: number | undefined };

interface FileHeatState {
  hot: { hot: HotStep[]; rankedRollouts: number } | null;
  rollouts: Map<number, RolloutHeat | null>;
  textRecords: Map<string, SourceRecord> | null;
}

const states = new WeakMap<KeptAnalysis, FileHeatState>();

function stateOf(kept: KeptAnalysis): FileHeatState {
  let state = states.get(kept);
  if (!state) states.set(kept, (state = { hot: null, rollouts: new Map(), textRecords: null }));
  return state;
}

const keyOf = (line: number, item: number | undefined): string => `${line}:${item ?? ''}`;

/** The records of these rollouts' lines, from the disk or the kept text. */
async function recordsOf(kept: KeptAnalysis, wanted: readonly Wanted[]): Promise<Map<string, SourceRecord>> {
  if (kept.disk) {
    const again = await readRecordsAgain(kept.disk.path, kept.disk.lines, wanted.map((w) => w.line), kept.analysis.settings);
    return new Map([...again].map(([line, r]) => [keyOf(line, r.record.item), r.record]));
  }
  if (kept.text === undefined) throw new Error('the texts of this analysis were not kept');
  const state = stateOf(kept);
  if (!state.textRecords) state.textRecords = new Map(readText(kept.text).records.map((r) => [keyOf(r.line, r.item), r]));
  return state.textRecords;
}

function placementOf(text: string, tokens: ResponseTokens, filePath: string | null, tokenizerDir: string | null): Placement {
  if (tokens.texts) return placeTokenTexts(text, tokens.texts);
  if (!tokens.ids) return { isPlaced: false, reason: 'it carries neither token ids nor token texts' };
  const lookup = vocabFor({ tokenizerDir, filePath, model: tokens.model });
  if (!lookup.vocab) return { isPlaced: false, reason: lookup.problem };
  const vocab = lookup.vocab;
  return placeTokenBytes(text, tokens.ids.map((id) => vocab.bytesOf(id)));
}

function flatRuns(runs: readonly HeatRun[]): number[] {
  const flat: number[] = [];
  for (const r of runs) flat.push(r.start, r.end, r.bucket);
  return flat;
}

function rawRunsOf(raw: string, rollout: Rollout, runs: readonly HeatRun[]): number[] | null {
  const location = rollout.responsePath ? locateString(raw, rollout.responsePath) : null;
  if (!location) return null;
  const offsets: number[] = [];
  for (const r of runs) offsets.push(r.start + rollout.responseShift, r.end + rollout.responseShift);
  const mapped = decodedToRaw(raw, location, offsets);
  return runs.flatMap((r, i) => [mapped[2 * i] as number, mapped[2 * i + 1] as number, r.bucket]);
}

function heatOf(kept: KeptAnalysis, w: Wanted, record: SourceRecord, prepared: PreparedRollout): RolloutHeat | null {
  const tokens = responseTokens(record.value, w.index);
  if (!tokens) return null;
  const settings = kept.analysis.settings;
  const placement = placementOf(prepared.rollout.response, tokens, kept.disk?.path ?? null, settings.tokenizerDir ?? null);
  const heat = responseHeat(tokens, placement, prepared.steps);
  const base = { rolloutId: w.id, tokenCount: heat.tokenCount, response: heat.response };
  if (!heat.placement.isPlaced) return { ...base, placement: heat.placement };
  const { measure, steps, runs } = heat.placement;
  return { ...base, placement: { isPlaced: true, measure, steps, runs: flatRuns(runs), rawRuns: rawRunsOf(record.raw, prepared.rollout, runs) } };
}

/** The heat of these rollouts (those whose records carry per-token values). */
async function computeHeat(kept: KeptAnalysis, wanted: readonly Wanted[]): Promise<RolloutHeat[]> {
  const records = await recordsOf(kept, wanted);
  const byRecord = new Map<SourceRecord, PreparedRollout[]>();
  const result: RolloutHeat[] = [];
  for (const w of wanted) {
    const record = records.get(keyOf(w.line, w.item));
    if (!record) continue;
    let prepared = byRecord.get(record);
    if (!prepared) byRecord.set(record, (prepared = prepareRecord(record, { settings: kept.analysis.settings, rawOffsets: false, firstId: 0, context: kept.context ?? {} }).rollouts));
    const rollout = prepared.find((p) => p.rollout.index === w.index);
    if (!rollout || rollout.rollout.group !== w.group) continue;
    const heat = heatOf(kept, w, record, rollout);
    if (heat) result.push(heat);
  }
  return result;
}

function hotOf(heats: readonly RolloutHeat[]): HotStep[] {
  const steps: HeatedStep[] = [];
  for (const h of heats) {
    if (!h.placement.isPlaced) continue;
    h.placement.steps.forEach((heat, step) => steps.push({ rolloutId: h.rolloutId, step, heat }));
  }
  return hotSteps(steps);
}

/**
 * The heat of the rollouts with these ids, and the file's hot steps when asked for (`hot` null
 * otherwise: ranking reads every record of the file once).
 */
export async function fileHeat(kept: KeptAnalysis, ids: readonly number[], withHot: boolean): Promise<HeatAnswer> {
  const state = stateOf(kept);
  const wantedIds = new Set(ids);
  const needsHot = withHot && !state.hot;
  const ranked: Wanted[] = [];
  const asked: Wanted[] = [];
  for (const r of eachRollout(kept.analysis)) {
    const w: Wanted = { id: r.id, line: r.line, index: r.index, group: r.group, item: (r as { item?: number }).item };
    if (needsHot && ranked.length < MAX_HEAT_ROLLOUTS) ranked.push(w);
    if (wantedIds.has(r.id) && !state.rollouts.has(r.id)) asked.push(w);
    if (!needsHot && asked.length === wantedIds.size) break;
  }
  if (needsHot) {
    const all = await computeHeat(kept, ranked);
    state.hot = { hot: hotOf(all), rankedRollouts: ranked.length };
    for (const h of all) if (wantedIds.has(h.rolloutId)) state.rollouts.set(h.rolloutId, h);
  }
  const missing = asked.filter((w) => !state.rollouts.has(w.id));
  const computed = new Map((await computeHeat(kept, missing)).map((h) => [h.rolloutId, h]));
  // A rollout without per-token values is kept as none, so it is not read again.
  for (const w of missing) state.rollouts.set(w.id, computed.get(w.id) ?? null);
  while (state.rollouts.size > KEPT_ROLLOUTS) state.rollouts.delete(state.rollouts.keys().next().value as number);
  const rollouts = ids.map((id) => state.rollouts.get(id)).filter((h): h is RolloutHeat => h !== undefined && h !== null);
  return { rollouts, hot: withHot ? state.hot?.hot ?? [] : null, rankedRollouts: state.hot?.rankedRollouts ?? 0 };
}
