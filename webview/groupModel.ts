/**
 * The group view's logic, without the DOM: re-deciding a group under what-if settings with the
 * same pure filter the analysis uses, ordering rows the way PROF ranks them, the group's counts,
 * and which rows a what-if changed.
 */
import type { Decision } from '../src/core/model';
import type { FalsePositive } from '../src/core/rules/groups';
import type { RankInput } from '../src/core/rules/profMath';
import { decideList } from '../src/core/rules/decideList';
import { rolloutFacts, type RolloutFacts } from '../src/core/presentation/rolloutFacts';
import { resolveSettings } from '../src/core/profSettings';
import type { GroupData, GroupRow, PanelSettings, WhatIfSettings } from '../src/protocol/panel';

import { namesResponse, rolloutLocation } from '../src/core/presentation/locationWords';
/** A row as shown: the analysed decision and the one under the current settings. */
export interface ViewRow {
  row: GroupRow;
  decision: Decision;
  falsePositive: FalsePositive;
  /** Low steps, evidence … under the current settings (the analysis's own when nothing changed). */
  facts: RolloutFacts;
  /** The decision the analysis made, for the "changed" mark. */
  analysed: Decision;
  /** Kept ↔ dropped differs from the analysis. */
  isChanged: boolean;
  /** How many of the group's rollouts share its line (a grouped line's responses). */
  responsesOnLine: number;
}

/** The counts in the group view's header. */
export interface GroupCounts {
  /** Ranked rollouts (n), correct (n+), incorrect (n−). */
  n: number;
  nPlus: number;
  nMinus: number;
  /** Rollouts kept per group as the settings say (n − remove when `remove` is set). */
  m: number;
  keptPlus: number;
  keptMinus: number;
  /** Dropped only because they tied with a kept rollout (file order decided). */
  tied: number;
  notRanked: number;
}

/** The what-if settings that the analysed settings amount to (what "reset" returns to). */
export function whatIfOf(settings: PanelSettings): WhatIfSettings {
  const { m, remove, variant, seed, penalty, lambda, maxSteps, aggregate, curation } = settings;
  return { m, remove, variant, seed, penalty, lambda, maxSteps, aggregate, ...(curation ? { curation } : {}) };
}

/** Whether two what-if settings are the same. */
export function isSameWhatIf(a: WhatIfSettings, b: WhatIfSettings): boolean {
  return a.m === b.m && a.remove === b.remove && a.variant === b.variant && a.seed === b.seed
    && a.penalty === b.penalty && a.lambda === b.lambda && a.maxSteps === b.maxSteps && a.aggregate === b.aggregate
    && JSON.stringify(a.curation ?? null) === JSON.stringify(b.curation ?? null);
}

function rankInput(row: GroupRow): RankInput {
  return {
    id: row.id,
    correct: row.outcome === 'correct' ? true : row.outcome === 'incorrect' ? false : null,
    nonBinary: row.outcome === 'non-binary',
    scores: row.stepScores,
    ...(row.signals ? { signals: row.signals } : {}),
  };
}

/** Decides the group again under `whatIf` (the analysed settings when null), rows in PROF's order. */
export function recompute(data: GroupData, whatIf: WhatIfSettings | null): ViewRow[] {
  const settings = resolveSettings({ ...data.settings, ...(whatIf ?? {}) });
  const members = data.rows.map(rankInput);
  const { decisions, falsePositives } = decideList(members, settings, data.group);
  const perLine = rowsPerLine(data.rows);
  const rows = data.rows.map((row, i): ViewRow => {
    const decision = decisions[i] as Decision;
    const falsePositive = falsePositives[i] as FalsePositive;
    const facts = rolloutFacts({ stepScores: row.stepScores ?? [], stepNotes: row.stepNotes, isScored: row.stepScores !== null, steps: decision.steps, falsePositive }, settings);
    return {
      row,
      decision,
      falsePositive,
      facts,
      analysed: row.decision,
      isChanged: decision.kept !== row.decision.kept,
      responsesOnLine: perLine.get(row.line) ?? 1,
    };
  });
  return sortRows(rows);
}

function classOrder(row: ViewRow): number {
  if (row.decision.rank === null) return 2;
  return row.row.outcome === 'correct' ? 0 : 1;
}

/**
 * Correct rollouts first, then incorrect, each most trusted first (their rank, which already
 * breaks consistency ties the way the filter does); rollouts not ranked last, in file order.
 */
export function sortRows(rows: readonly ViewRow[]): ViewRow[] {
  return [...rows].sort((a, b) =>
    classOrder(a) - classOrder(b) || (a.decision.rank ?? 0) - (b.decision.rank ?? 0) || a.row.id - b.row.id);
}

/** n, n+, n−, m, k+, k− under the current decisions. */
export function countGroup(rows: readonly ViewRow[], whatIf: WhatIfSettings): GroupCounts {
  const ranked = rows.filter((r) => r.decision.rank !== null);
  const isCorrect = (r: ViewRow): boolean => r.row.outcome === 'correct';
  const n = ranked.length;
  return {
    n,
    nPlus: ranked.filter(isCorrect).length,
    nMinus: ranked.filter((r) => !isCorrect(r)).length,
    m: whatIf.remove === null ? whatIf.m : Math.max(0, n - whatIf.remove),
    keptPlus: ranked.filter((r) => isCorrect(r) && r.decision.kept).length,
    keptMinus: ranked.filter((r) => !isCorrect(r) && r.decision.kept).length,
    tied: ranked.filter((r) => r.decision.reason === 'dropped-tie').length,
    notRanked: rows.length - n,
  };
}

/**
 * The line cell of a row: `12`, or `12` and `4/16` (its response and how many the line holds) for
 * a response of a line holding a group, its first response included. The title says it in full
 * (`line 12, response 4 of 16`), in the words every surface uses.
 */
export function lineCell(row: Pick<GroupRow, 'line' | 'index'>, responsesOnLine: number): { line: string; response: string | null; title: string } {
  const place = { line: row.line, index: row.index, count: responsesOnLine };
  if (!namesResponse(place)) return { line: String(row.line), response: null, title: rolloutLocation(place) };
  return { line: String(row.line), response: `${row.index + 1}/${responsesOnLine}`, title: rolloutLocation(place) };
}

/** How many of the rows share each line (a grouped line's responses are all in its group). */
export function rowsPerLine(rows: readonly Pick<GroupRow, 'line'>[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.line, (counts.get(r.line) ?? 0) + 1);
  return counts;
}
