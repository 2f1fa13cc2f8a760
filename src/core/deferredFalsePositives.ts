/**
 * False-positive verdicts held as what their rules read, in columns, and made when first asked
 * for: `decideTable` records one for every ranked correct rollout some rule fired for.
 */
import type { RolloutTable } from './rolloutTable';
import { REASONS } from './rolloutTable';
import type { ProfSettings } from './profSettings';
import type { ReasonCode } from './model';
import { TIE_TOLERANCE } from './prof';
import { NOT_SUSPECTED, rankedFalsePositive, type FalsePositive } from './groups';
import { Column } from './columns';
import { RULE_BITS, SUSPECTED_BIT, type DeferredFalsePositives } from './falsePositiveMask';

const LOW_CONSISTENCY = REASONS.indexOf('dropped-low-consistency');

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

  /** Holds the verdict of `row` (some rule fired) and returns its number. */
  add(row: number, why: number, low: number, score: number, consistency: number, upperFloor: number | null, keptFloor: number | null, mask: number): number {
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
    return falsePositiveOfRow(scores, 0, scores.length, this.low.get(at), this.why.get(at), this.score.get(at), this.consistency.get(at), Number.isNaN(upper) ? null : upper, Number.isNaN(kept) ? null : kept, this.s);
  }
}

/**
 * `falsePositiveOf` for a ranked correct row whose step scores are `scores[start, start + count)`:
 * the shared no-suspicion value, with no object made, unless a rule fires.
 */
function falsePositiveOfRow(scores: Float64Array, start: number, count: number, low: number, why: number, score: number, consistency: number, upperFloor: number | null, keptFloor: number | null, s: ProfSettings): FalsePositive {
  // `firstLowStep` (found by the caller), then (only then) `weakestStepOf`: a NaN (unscored) step is neither.
  const mayDrop = why === LOW_CONSISTENCY && keptFloor !== null && consistency < keptFloor - TIE_TOLERANCE;
  const mayBottom = upperFloor !== null && score < upperFloor - TIE_TOLERANCE;
  if (low === -1 && !mayDrop && !mayBottom) return NOT_SUSPECTED;
  let lowStep: { step: number; score: number } | null = null;
  let weakestStep: { step: number; score: number } | null = null;
  if (low !== -1) {
    lowStep = { step: low, score: scores[start + low]! };
    let step = -1;
    let weakest = 0;
    for (let i = 0; i < count; i++) {
      const x = scores[start + i]!;
      if (x - x === 0 && (step === -1 || x < weakest)) {
        step = i;
        weakest = x;
      }
    }
    weakestStep = step === -1 ? null : { step, score: weakest };
  }
  return rankedFalsePositive({ reason: REASONS[why] as ReasonCode, score, consistency, lowStep, weakestStep }, upperFloor, keptFloor, s);
}
