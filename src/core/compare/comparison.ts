/**
 * Two dumps compared prompt by prompt. Prompts align by their question (`questionKey`); a
 * question that either side asks with more than one gold answer is told apart by its gold on both
 * sides (two problems that share a wording), otherwise the gold is not compared, so a side that
 * states no gold still aligns. Per aligned prompt: pass rate on each side (correct rollouts among
 * all its rollouts, as `report`'s accuracy counts), its change, the consistency of each side's
 * best kept rollout, suspected false positives; largest regression first.
 */
import type { CompareSide, SidePrompt } from './compareSide';

/** One aligned prompt. */
export interface PromptComparison {
  /** The prompt as side a has it. */
  prompt: string;
  /** Side a's name for it (the question without the instruction every group of side a shares). */
  nameA?: string;
  groupA: string;
  groupB: string;
  nA: number;
  nB: number;
  passRateA: number;
  passRateB: number;
  /** passRateB − passRateA. */
  delta: number;
  /** The highest consistency among the prompt's kept rollouts on side a; null when none is kept. */
  consistencyA: number | null;
  consistencyB: number | null;
  suspectedFalsePositivesA: number;
  suspectedFalsePositivesB: number;
  /** Each side's rollout ids for this prompt, when the sides kept them (for the side-by-side view). */
  rowsA?: number[];
  rowsB?: number[];
}

export interface CompareTotals {
  promptsA: number;
  promptsB: number;
  aligned: number;
  rolloutsA: number;
  rolloutsB: number;
  /** Pooled over the aligned prompts' rollouts. */
  passRateA: number | null;
  passRateB: number | null;
  delta: number | null;
  regressed: number;
  improved: number;
  unchanged: number;
  suspectedFalsePositivesA: number;
  suspectedFalsePositivesB: number;
  unreadableLinesA: number;
  unreadableLinesB: number;
}

export interface Comparison {
  /** Sorted by delta ascending (largest regression first); equal deltas in side a's order. */
  prompts: PromptComparison[];
  /** Prompts on one side only. */
  onlyA: number;
  onlyB: number;
  totals: CompareTotals;
}

/** Deltas closer than this are equal (sorting, counting changes): 1 / 8 − 0 and 3 / 8 − 1 / 4 are one change. */
const DELTA_TOLERANCE = 1e-9;

/** Questions asked with more than one gold on a side: told apart by gold on both sides. */
function questionsWithSeveralGolds(sides: readonly CompareSide[]): Set<string> {
  const several = new Set<string>();
  for (const side of sides) {
    const gold = new Map<string, string | null>();
    for (const p of side.prompts) {
      if (!gold.has(p.question)) gold.set(p.question, p.gold);
      else if (gold.get(p.question) !== p.gold) several.add(p.question);
    }
  }
  return several;
}

/** A side's prompts merged under their alignment keys, in order of first appearance. */
function aligned(side: CompareSide, several: ReadonlySet<string>): Map<string, SidePrompt> {
  const merged = new Map<string, SidePrompt>();
  for (const p of side.prompts) {
    const key = several.has(p.question) ? `${p.question}\u0000${p.gold ?? '\u0001'}` : p.question;
    const known = merged.get(key);
    if (!known) {
      merged.set(key, { ...p, ...(p.rows ? { rows: [...p.rows] } : {}) });
      continue;
    }
    known.groups += p.groups;
    known.rollouts += p.rollouts;
    known.correct += p.correct;
    known.incorrect += p.incorrect;
    known.suspectedFalsePositives += p.suspectedFalsePositives;
    if (p.bestKeptConsistency !== null && (known.bestKeptConsistency === null || p.bestKeptConsistency > known.bestKeptConsistency)) known.bestKeptConsistency = p.bestKeptConsistency;
    if (known.rows && p.rows) known.rows.push(...p.rows);
  }
  return merged;
}

function passRate(p: SidePrompt): number {
  return p.rollouts === 0 ? 0 : p.correct / p.rollouts;
}

/** Compares side b with side a. */
export function compareSides(a: CompareSide, b: CompareSide): Comparison {
  const several = questionsWithSeveralGolds([a, b]);
  const left = aligned(a, several);
  const right = aligned(b, several);
  const prompts: PromptComparison[] = [];
  let pooled = { nA: 0, nB: 0, correctA: 0, correctB: 0 };
  for (const [key, pa] of left) {
    const pb = right.get(key);
    if (!pb) continue;
    const passRateA = passRate(pa);
    const passRateB = passRate(pb);
    prompts.push({
      prompt: pa.prompt,
      ...(pa.name ? { nameA: pa.name } : {}),
      groupA: pa.group,
      groupB: pb.group,
      nA: pa.rollouts,
      nB: pb.rollouts,
      passRateA,
      passRateB,
      delta: passRateB - passRateA,
      consistencyA: pa.bestKeptConsistency,
      consistencyB: pb.bestKeptConsistency,
      suspectedFalsePositivesA: pa.suspectedFalsePositives,
      suspectedFalsePositivesB: pb.suspectedFalsePositives,
      ...(pa.rows && pb.rows ? { rowsA: pa.rows, rowsB: pb.rows } : {}),
    });
    pooled = { nA: pooled.nA + pa.rollouts, nB: pooled.nB + pb.rollouts, correctA: pooled.correctA + pa.correct, correctB: pooled.correctB + pb.correct };
  }
  // Stable: equal deltas keep side a's order.
  const rounded = (d: number): number => Math.round(d / DELTA_TOLERANCE);
  prompts.sort((x, y) => rounded(x.delta) - rounded(y.delta));
  const count = (test: (d: number) => boolean): number => prompts.filter((p) => test(rounded(p.delta))).length;
  const passRateA = pooled.nA > 0 ? pooled.correctA / pooled.nA : null;
  const passRateB = pooled.nB > 0 ? pooled.correctB / pooled.nB : null;
  const sum = (list: readonly PromptComparison[], pick: (p: PromptComparison) => number): number => list.reduce((s, p) => s + pick(p), 0);
  return {
    prompts,
    onlyA: left.size - prompts.length,
    onlyB: right.size - prompts.length,
    totals: {
      promptsA: left.size,
      promptsB: right.size,
      aligned: prompts.length,
      rolloutsA: a.rollouts,
      rolloutsB: b.rollouts,
      passRateA,
      passRateB,
      delta: passRateA === null || passRateB === null ? null : passRateB - passRateA,
      regressed: count((d) => d < 0),
      improved: count((d) => d > 0),
      unchanged: count((d) => d === 0),
      suspectedFalsePositivesA: sum(prompts, (p) => p.suspectedFalsePositivesA),
      suspectedFalsePositivesB: sum(prompts, (p) => p.suspectedFalsePositivesB),
      unreadableLinesA: a.unreadableLines,
      unreadableLinesB: b.unreadableLines,
    },
  };
}

/** The machine-readable comparison (the CLI contract): each prompt's twelve fields, in order. */
export function comparisonJson(a: string, b: string, c: Comparison): Record<string, unknown> {
  return {
    a,
    b,
    prompts: c.prompts.map((p) => ({
      prompt: p.prompt,
      groupA: p.groupA,
      groupB: p.groupB,
      nA: p.nA,
      nB: p.nB,
      passRateA: p.passRateA,
      passRateB: p.passRateB,
      delta: p.delta,
      consistencyA: p.consistencyA,
      consistencyB: p.consistencyB,
      suspectedFalsePositivesA: p.suspectedFalsePositivesA,
      suspectedFalsePositivesB: p.suspectedFalsePositivesB,
    })),
    onlyA: c.onlyA,
    onlyB: c.onlyB,
    totals: c.totals,
  };
}
