/**
 * PROF, the default curation rule and its only implementation (docs/prof-semantics.md): consistency
 * scores, the step-count penalty, the balanced split between correct and incorrect rollouts (round
 * half to even), stable tie-breaks in file order, `dropped-tie`, and a reason code on every rollout.
 *
 * It runs over columns, group by group: a file's table (`decideTable`) or one group built from a
 * list (`decideList`, for the panel's what-if and the editor's exports). The loop over groups runs
 * once per file, and code that runs once is barely optimised by the engine, so the filter is a few
 * small functions over typed arrays (no member, ranked or decision object per rollout), which the
 * engine compiles while they run.
 */
import type { DecisionColumns } from '../table/rolloutTable';
import { IS_DECIDED, IS_KEPT, IS_PENALISED, IS_SCORED, REASONS } from '../table/rolloutTable';
import type { ProfSettings } from '../profSettings';
import { isPenalised, roundHalfEven, TIE_TOLERANCE } from './profMath';
import { upperHalfFloor } from './groups';
import type { ReasonCode } from '../model';
import { COLUMN_PAGE, COLUMN_PAGE_BITS } from '../table/columns';
import { seededSample } from './random';

const PAGE_MASK = COLUMN_PAGE - 1;

/** Where the false-positive rules of a ranked correct rollout go (the table's deferred verdicts). */
export interface FalsePositiveSink {
  /** `DeferredFacts.add`: the verdict's number when a rule fires, else -1. */
  add(row: number, why: number, low: number, score: number, consistency: number, upperFloor: number | null, keptFloor: number | null): number;
  /** Keeps verdict `at` for `row`. */
  record(row: number, at: number): void;
}

/** The groups of the rows: group g is `order[starts[g]]` to `order[starts[g + 1] − 1]`, in file order. */
export interface GroupOrder {
  starts: Int32Array;
  order: Int32Array;
  /** Group g's key: it seeds the POS variant's draw, so a group's decision does not depend on the others. */
  key(g: number): string;
}

/** Decides every group with PROF and writes the decisions into `columns`. */
export function decideProf(columns: DecisionColumns, groups: GroupOrder, s: ProfSettings, sink: FalsePositiveSink | null): void {
  const { starts, order } = groups;
  const w = new GroupWork();
  const aggregate = s.aggregate === 'sum' ? SUM : s.aggregate === 'min' ? MIN : MEAN;
  for (let g = 0; g + 1 < starts.length; g++) {
    const from = starts[g]!;
    w.reset(starts[g + 1]! - from);
    rankMembers(w, columns, order, from, s, aggregate);
    sortClass(w.correct, w.nc, w);
    sortClass(w.incorrect, w.ni, w);
    const R = chooseRemoved(w, s, groups, g);
    markTies(w.correct, w.nc, w);
    markTies(w.incorrect, w.ni, w);
    const keptFloor = keptCorrectFloor(w);
    const upperFloor = upperHalfFloor(correctScoresOf(w));
    writeDecisions(w, columns, R, upperFloor, keptFloor, sink, s);
  }
}

// Outcome codes as `OUTCOME_KINDS` numbers them.
const CORRECT = 0;
const INCORRECT = 1;
const UNKNOWN = 2;
/** A member's class when it is not ranked. */
const NOT_RANKED = -1;

const reason = (code: ReasonCode): number => REASONS.indexOf(code);
const KEPT = reason('kept');
const KEPT_SMALL_GROUP = reason('kept-small-group');
const LOW_CONSISTENCY = reason('dropped-low-consistency');
const CONFLICT = reason('dropped-conflict');
const STEP_PENALTY = reason('dropped-step-penalty');
const TIE = reason('dropped-tie');
const GROUP_TOO_SMALL = reason('dropped-group-too-small');
const RANDOM = reason('dropped-random');
const NO_OUTCOME = reason('not-ranked-no-outcome');
const NON_BINARY = reason('not-ranked-non-binary');
const NO_SCORES = reason('not-ranked-no-scores');
/** No removal (`removed` of a kept rollout). */
const NONE = -1;

/** Below this length a class is sorted by insertion, as `stableSort` does. */
const INSERTION_SORT_MAX = 32;

/** Per-position work arrays of one group, grown to the largest group and reused. */
class GroupWork {
  size = 0;
  /** Ranked correct and incorrect members (`correct`, `incorrect`) of the group. */
  nc = 0;
  ni = 0;
  rows = new Int32Array(16);
  score = new Float64Array(16);
  consistency = new Float64Array(16);
  penalised = new Uint8Array(16);
  removed = new Int8Array(16);
  /** The member's class: correct, incorrect, or not ranked. */
  kind = new Int8Array(16);
  correct = new Int32Array(16);
  incorrect = new Int32Array(16);
  keptBefore = new Int32Array(17);
  correctScores: number[] = [];

  reset(size: number): void {
    this.size = size;
    if (size <= this.rows.length) return;
    const capacity = size * 2;
    this.rows = new Int32Array(capacity);
    this.score = new Float64Array(capacity);
    this.consistency = new Float64Array(capacity);
    this.penalised = new Uint8Array(capacity);
    this.removed = new Int8Array(capacity);
    this.kind = new Int8Array(capacity);
    this.correct = new Int32Array(capacity);
    this.incorrect = new Int32Array(capacity);
    this.keptBefore = new Int32Array(capacity + 1);
  }
}

/** Each member: not ranked (decided at once), or its figures (aggregate, penalty, consistency) and its class. */
function rankMembers(w: GroupWork, columns: DecisionColumns, order: Int32Array, from: number, s: ProfSettings, aggregate: number): void {
  const { flags, scoreStart, scoreCount, scorePages, outcomeKinds } = columns;
  let nc = 0;
  let ni = 0;
  for (let k = 0; k < w.size; k++) {
    const row = order[from + k]!;
    w.rows[k] = row;
    w.removed[k] = NONE;
    w.kind[k] = NOT_RANKED;
    const kind = outcomeKinds[row]!;
    const isScored = (flags[row]! & IS_SCORED) !== 0;
    if ((kind !== CORRECT && kind !== INCORRECT) || !isScored) {
      // `unranked`: not kept, no score, consistency or rank.
      flags[row] = (flags[row]! & IS_SCORED) | IS_DECIDED;
      columns.reason[row] = kind === UNKNOWN ? NO_OUTCOME : kind !== CORRECT && kind !== INCORRECT ? NON_BINARY : NO_SCORES;
      columns.steps[row] = isScored ? scoreCount[row]! : 0;
      columns.score[row] = Number.NaN;
      columns.consistency[row] = Number.NaN;
      columns.rank[row] = -1;
      continue;
    }
    const count = scoreCount[row]!;
    const score = aggregateOf(scorePages, scoreStart[row]!, count, aggregate);
    const penalised = isPenalised(count, s.penalty, s.maxSteps);
    w.score[k] = score;
    w.consistency[k] = (kind === CORRECT ? score : -score) - (penalised ? s.lambda : 0);
    w.penalised[k] = penalised ? 1 : 0;
    w.kind[k] = kind;
    if (kind === CORRECT) w.correct[nc++] = k;
    else w.incorrect[ni++] = k;
  }
  w.nc = nc;
  w.ni = ni;
}

/** Marks the members PROF removes (before ties and penalties refine the reason) and returns R. */
function chooseRemoved(w: GroupWork, s: ProfSettings, groups: GroupOrder, g: number): number {
  const { nc, ni } = w;
  const ranked = nc + ni;
  const R = s.remove !== null ? s.remove : ranked - s.m;
  if (R <= 0) return R;
  if (s.remove !== null && ranked <= R) {
    for (let i = 0; i < nc; i++) w.removed[w.correct[i]!] = GROUP_TOO_SMALL;
    for (let i = 0; i < ni; i++) w.removed[w.incorrect[i]!] = GROUP_TOO_SMALL;
  } else {
    const rPlus = Math.max(0, Math.min(Math.min(R, roundHalfEven((nc - ni + R) / 2)), nc));
    const rMinus = Math.min(R - rPlus, ni);
    for (let i = nc - rPlus; i < nc; i++) w.removed[w.correct[i]!] = LOW_CONSISTENCY;
    if (s.variant === 'pos') removeAtRandom(w, rMinus, `${s.seed}\u0000${groups.key(g)}`);
    else for (let i = ni - rMinus; i < ni; i++) w.removed[w.incorrect[i]!] = CONFLICT;
  }
  return R;
}

/** POS: `count` incorrect members drawn by the seeded sample (over row numbers, i.e. file order). */
function removeAtRandom(w: GroupWork, count: number, seedKey: string): void {
  const pool = new Array<{ id: number; at: number }>(w.ni);
  for (let i = 0; i < w.ni; i++) pool[i] = { id: w.rows[w.incorrect[i]!]!, at: w.incorrect[i]! };
  for (const picked of seededSample(pool, count, seedKey)) w.removed[picked.at] = RANDOM;
}

/** The lowest consistency of the kept ranked correct members, or null when none is kept. */
function keptCorrectFloor(w: GroupWork): number | null {
  let keptFloor: number | null = null;
  for (let k = 0; k < w.size; k++) {
    if (w.kind[k] === CORRECT && w.removed[k] === NONE) keptFloor = keptFloor === null ? w.consistency[k]! : Math.min(keptFloor, w.consistency[k]!);
  }
  return keptFloor;
}

/** The ranked correct members' scores, in member order (the list is reused). */
function correctScoresOf(w: GroupWork): number[] {
  const correctScores = w.correctScores;
  correctScores.length = 0;
  for (let k = 0; k < w.size; k++) if (w.kind[k] === CORRECT) correctScores.push(w.score[k]!);
  return correctScores;
}

/** `decisionFor` of every ranked member, and the false-positive rules for the correct class. */
function writeDecisions(w: GroupWork, columns: DecisionColumns, R: number, upperFloor: number | null, keptFloor: number | null, sink: FalsePositiveSink | null, s: ProfSettings): void {
  const { flags, scoreStart, scoreCount, scorePages } = columns;
  for (let c = 0; c < 2; c++) {
    const list = c === 0 ? w.correct : w.incorrect;
    const length = c === 0 ? w.nc : w.ni;
    for (let i = 0; i < length; i++) {
      const k = list[i]!;
      const row = w.rows[k]!;
      const removedAs = w.removed[k]!;
      const isPenalisedRow = w.penalised[k] === 1;
      let why = R <= 0 ? KEPT_SMALL_GROUP : KEPT;
      if (removedAs !== NONE) why = isPenalisedRow && (removedAs === LOW_CONSISTENCY || removedAs === CONFLICT) ? STEP_PENALTY : removedAs;
      flags[row] = (flags[row]! & IS_SCORED) | IS_DECIDED | (removedAs === NONE ? IS_KEPT : 0) | (isPenalisedRow ? IS_PENALISED : 0);
      columns.reason[row] = why;
      columns.steps[row] = scoreCount[row]!;
      columns.score[row] = w.score[k]!;
      columns.consistency[row] = w.consistency[k]!;
      columns.rank[row] = i + 1;
      if (c === 0 && sink !== null) {
        // The false-positive rules; a verdict, where one fires, is made when asked for.
        const low = firstLowStep(scorePages, scoreStart[row]!, scoreCount[row]!, s.threshold);
        const at = sink.add(row, why, low, w.score[k]!, w.consistency[k]!, upperFloor, keptFloor);
        if (at !== -1) sink.record(row, at);
      }
    }
  }
}

const SUM = 0;
const MIN = 1;
const MEAN = 2;

/**
 * `aggregateScores` over the scores `start` to `start + count` of the pages: unscored (NaN, ±Infinity) steps are left
 * out, the rest summed in order; 0 when none is scored. A small function of its own, so the engine
 * optimises it soon (the loop over groups that calls it runs once per file).
 */
function aggregateOf(pages: readonly Float64Array[], start: number, count: number, aggregate: number): number {
  let sum = 0;
  let min = Infinity;
  let scored = 0;
  const offset = start & PAGE_MASK;
  if (offset + count <= COLUMN_PAGE) {
    // Within one page, as nearly every row's scores are: one array, no page per score.
    const page = pages[start >>> COLUMN_PAGE_BITS] as Float64Array;
    for (let i = offset; i < offset + count; i++) {
      const x = page[i]!;
      // Not finite exactly when x − x is not 0: no call per score.
      if (x - x !== 0) continue;
      sum += x;
      if (x < min) min = x;
      scored++;
    }
  } else {
    for (let i = start; i < start + count; i++) {
      const x = (pages[i >>> COLUMN_PAGE_BITS] as Float64Array)[i & PAGE_MASK]!;
      if (x - x !== 0) continue;
      sum += x;
      if (x < min) min = x;
      scored++;
    }
  }
  return scored === 0 ? 0 : aggregate === SUM ? sum : aggregate === MIN ? min : sum / scored;
}

/** `firstLowStep`: the first scored step below the threshold (0-based), or −1. */
function firstLowStep(pages: readonly Float64Array[], start: number, count: number, threshold: number): number {
  for (let i = 0; i < count; i++) {
    const at = start + i;
    const x = (pages[at >>> COLUMN_PAGE_BITS] as Float64Array)[at & PAGE_MASK]!;
    if (x - x === 0 && x < threshold) return i;
  }
  return -1;
}

/**
 * Most trusted first: highest consistency, and among equals the LATER rollout first, so that removing
 * from the tail (lowest first) takes the earlier rollout first, as a stable ascending sort does.
 */
function sortClass(list: Int32Array, length: number, w: GroupWork): void {
  const after = (a: number, b: number): number => w.consistency[b]! - w.consistency[a]! || w.rows[b]! - w.rows[a]!;
  if (length > INSERTION_SORT_MAX) {
    const sorted = Array.from(list.subarray(0, length)).sort(after);
    for (let i = 0; i < length; i++) list[i] = sorted[i]!;
    return;
  }
  for (let i = 1; i < length; i++) {
    const item = list[i]!;
    let j = i - 1;
    while (j >= 0 && after(list[j]!, item) > 0) {
      list[j + 1] = list[j]!;
      j--;
    }
    list[j + 1] = item;
  }
}

/**
 * A rank removal within `TIE_TOLERANCE` of a kept rollout of its class was removed by file order,
 * not by its scores: its reason becomes `dropped-tie` (the kept/dropped bits stay). The run of equal
 * values is followed with two pointers and a running count of kept members: one pass, however many tie.
 */
function markTies(list: Int32Array, n: number, w: GroupWork): void {
  const keptBefore = w.keptBefore;
  keptBefore[0] = 0;
  for (let k = 0; k < n; k++) keptBefore[k + 1] = keptBefore[k]! + (w.removed[list[k]!] === NONE ? 1 : 0);
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) {
    const at = list[i]!;
    const removedAs = w.removed[at];
    if (removedAs !== LOW_CONSISTENCY && removedAs !== CONFLICT) continue;
    const value = w.consistency[at]!;
    while (lo < i && w.consistency[list[lo]!]! - value > TIE_TOLERANCE) lo++;
    if (hi <= i) hi = i + 1;
    while (hi < n && value - w.consistency[list[hi]!]! <= TIE_TOLERANCE) hi++;
    if (keptBefore[hi]! - keptBefore[lo]! > 0) w.removed[at] = TIE;
  }
}
