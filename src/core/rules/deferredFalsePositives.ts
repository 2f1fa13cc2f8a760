/**
 * False-positive verdicts held as what their rules read, in columns, and made when first asked
 * for: the decider (`rules/decide.ts`) records one for every ranked correct rollout some rule fired for.
 */
import type { RolloutTable } from '../table/rolloutTable';
import { REASONS } from '../table/rolloutTable';
import type { ProfSettings } from '../profSettings';
import type { ReasonCode } from '../model';
import { TIE_TOLERANCE } from './profMath';
import { rankedFalsePositive, type FalsePositive } from './groups';
import { Column } from '../table/columns';
import { RULE_BITS, SUSPECTED_BIT, type DeferredFalsePositives } from './falsePositiveMask';

const LOW_CONSISTENCY = REASONS.indexOf('dropped-low-consistency');
const PROF_DROPPED = RULE_BITS['prof-dropped'];
const WEAK_STEP = RULE_BITS['weak-step'];
const BOTTOM_HALF = RULE_BITS['bottom-half'];

/**
 * The false-positive verdicts of ranked correct rows where a rule fired, held as what the rules
 * read (their masks made at once, their objects when asked for): a report counts the rules, and
 * an object per flagged rollout (its evidence and strength) made in the loop over groups cost most
 * of the decisions' time, and the long-lived objects made there threw away its optimised code.
 */
export class DeferredFacts implements DeferredFalsePositives {
  private readonly rows = new Column(Int32Array);
  private readonly why = new Column(Uint8Array);
  private readonly low = new Column(Int32Array);
  private readonly score = new Column(Float64Array);
  private readonly consistency = new Column(Float64Array);
  /** NaN for null. */
  private readonly upperFloor = new Column(Float64Array);
  private readonly keptFloor = new Column(Float64Array);
  private readonly masks = new Column(Uint8Array);
  /** `SUSPECTED_BIT`'s rules: those the settings select. */
  private readonly selected: number;

  constructor(private readonly table: RolloutTable, private readonly s: ProfSettings) {
    let selected = 0;
    for (const rule of s.falsePositiveRules) selected |= RULE_BITS[rule];
    this.selected = selected;
  }

  /**
   * The rules of `rankedFalsePositive` for a ranked correct row, in its order, as bits: when one
   * fires, the row's verdict is held and its number returned; else -1 (no verdict, as
   * `NOT_SUSPECTED`).
   */
  add(row: number, why: number, low: number, score: number, consistency: number, upperFloor: number | null, keptFloor: number | null): number {
    let mask = 0;
    if (why === LOW_CONSISTENCY && keptFloor !== null && consistency < keptFloor - TIE_TOLERANCE) mask |= PROF_DROPPED;
    if (low !== -1) mask |= WEAK_STEP;
    if (upperFloor !== null && score < upperFloor - TIE_TOLERANCE) mask |= BOTTOM_HALF;
    if (mask === 0) return -1;
    const at = this.rows.length;
    this.rows.push(row);
    this.why.push(why);
    this.low.push(low);
    this.score.push(score);
    this.consistency.push(consistency);
    this.upperFloor.push(upperFloor === null ? Number.NaN : upperFloor);
    this.keptFloor.push(keptFloor === null ? Number.NaN : keptFloor);
    this.masks.push((mask & this.selected) !== 0 ? mask | SUSPECTED_BIT : mask);
    return at;
  }

  mask(at: number): number {
    return this.masks.get(at);
  }

  make(at: number): FalsePositive {
    const row = this.rows.get(at);
    const steps = this.table.stepScores(row);
    const scores = new Float64Array(steps.length);
    for (let i = 0; i < steps.length; i++) scores[i] = steps[i] ?? Number.NaN;
    const upper = this.upperFloor.get(at);
    const kept = this.keptFloor.get(at);
    return verdictOf(scores, this.low.get(at), this.why.get(at), this.score.get(at), this.consistency.get(at), Number.isNaN(upper) ? null : upper, Number.isNaN(kept) ? null : kept, this.s);
  }
}

/**
 * `falsePositiveOf` for a ranked correct row some rule fired for (`DeferredFacts.add`), whose step
 * scores are `scores` (NaN for an unscored step) and whose first low step is `low` (-1 for none).
 */
function verdictOf(scores: Float64Array, low: number, why: number, score: number, consistency: number, upperFloor: number | null, keptFloor: number | null, s: ProfSettings): FalsePositive {
  // `weakestStepOf` only when a step is low: a NaN (unscored) step is neither.
  let lowStep: { step: number; score: number } | null = null;
  let weakestStep: { step: number; score: number } | null = null;
  if (low !== -1) {
    lowStep = { step: low, score: scores[low]! };
    let step = -1;
    let weakest = 0;
    for (let i = 0; i < scores.length; i++) {
      const x = scores[i]!;
      if (x - x === 0 && (step === -1 || x < weakest)) {
        step = i;
        weakest = x;
      }
    }
    weakestStep = step === -1 ? null : { step, score: weakest };
  }
  return rankedFalsePositive({ reason: REASONS[why] as ReasonCode, score, consistency, lowStep, weakestStep }, upperFloor, keptFloor, s);
}
