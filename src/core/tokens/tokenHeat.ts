/**
 * A response's token heat: its per-token values placed on its text, summed up per step (mean and
 * minimum log-probability, mean and maximum entropy), and the runs of text to tint. One home for
 * these figures: the editor's tint, hovers and the list of hot steps all read them.
 */
import type { ResponseTokens } from './tokenValues';
import type { Placement } from './tokenPlacement';

/** What a tint is drawn from: log-probability when the record has it, else entropy. */
export type HeatMeasure = 'logprob' | 'entropy';

/** Mean and extreme of some tokens' values (min for log-probability, max for entropy). */
export interface HeatFigure {
  mean: number;
  /** The least log-probability, or the largest entropy. */
  extreme: number;
  count: number;
}

/** One step's figures; null when no token of the step carries that value. */
export interface StepHeat {
  logprob: HeatFigure | null;
  entropy: HeatFigure | null;
}

/** A run of text in one tint bucket: `[start, end)` in the response text, bucket 1 (mild) … HEAT_BUCKETS. */
export interface HeatRun {
  start: number;
  end: number;
  bucket: number;
}

/** A response's heat. */
export interface ResponseHeat {
  /** How many per-token values the record carries for the response. */
  tokenCount: number;
  response: StepHeat;
  /** Placed on the text: per step figures and tint runs. Not placed: why. */
  placement: { isPlaced: true; steps: StepHeat[]; runs: HeatRun[]; measure: HeatMeasure } | { isPlaced: false; reason: string };
}

/** Tint buckets; bucket 0 is no tint. */
export const HEAT_BUCKETS = 4;

/**
 * Lower bounds of buckets 1…4. Log-probability: the sampled token had probability under 0.5, 0.2,
 * 0.05, 0.01. Entropy (nats): at least 0.5, 1, 2, 3.
 */
const LOGPROB_BOUNDS = [Math.log(0.5), Math.log(0.2), Math.log(0.05), Math.log(0.01)];
const ENTROPY_BOUNDS = [0.5, 1, 2, 3];

/** A value's tint bucket, 0 (no tint) … HEAT_BUCKETS. */
export function heatBucket(measure: HeatMeasure, value: number): number {
  if (!Number.isFinite(value)) return 0;
  let bucket = 0;
  for (let b = 0; b < HEAT_BUCKETS; b++) {
    const hotter = measure === 'logprob' ? value < (LOGPROB_BOUNDS[b] as number) : value >= (ENTROPY_BOUNDS[b] as number);
    if (hotter) bucket = b + 1;
  }
  return bucket;
}

class Figures {
  private total = 0;
  count = 0;
  private extreme = 0;
  constructor(private readonly isMin: boolean) {}
  add(v: number | undefined): void {
    if (v === undefined || !Number.isFinite(v)) return;
    this.extreme = this.count === 0 ? v : this.isMin ? Math.min(this.extreme, v) : Math.max(this.extreme, v);
    this.total += v;
    this.count++;
  }
  figure(): HeatFigure | null {
    return this.count === 0 ? null : { mean: this.total / this.count, extreme: this.extreme, count: this.count };
  }
}

function heatOf(tokens: ResponseTokens, pick: (i: number) => boolean): StepHeat {
  const logprob = new Figures(true);
  const entropy = new Figures(false);
  const n = Math.max(tokens.logprobs?.length ?? 0, tokens.entropies?.length ?? 0);
  for (let i = 0; i < n; i++) {
    if (!pick(i)) continue;
    logprob.add(tokens.logprobs?.[i]);
    entropy.add(tokens.entropies?.[i]);
  }
  return { logprob: logprob.figure(), entropy: entropy.figure() };
}

/** Per step, the tokens that start inside it (steps and tokens both in text order: one pass). */
function stepHeats(tokens: ResponseTokens, starts: Int32Array, steps: readonly { start: number; end: number }[]): StepHeat[] {
  const owner = new Int32Array(starts.length).fill(-1);
  let s = 0;
  for (let i = 0; i < starts.length; i++) {
    const at = starts[i] as number;
    if (at < 0) continue;
    while (s < steps.length && (steps[s] as { end: number }).end <= at) s++;
    const step = steps[s];
    if (step && step.start <= at) owner[i] = s;
  }
  const figures = steps.map(() => ({ logprob: new Figures(true), entropy: new Figures(false) }));
  for (let i = 0; i < owner.length; i++) {
    const f = figures[owner[i] as number];
    if (!f) continue;
    f.logprob.add(tokens.logprobs?.[i]);
    f.entropy.add(tokens.entropies?.[i]);
  }
  return figures.map((f) => ({ logprob: f.logprob.figure(), entropy: f.entropy.figure() }));
}

/** Adjacent tokens of one bucket as one run; untinted tokens make none. */
function heatRuns(values: readonly number[], measure: HeatMeasure, starts: Int32Array, ends: Int32Array): HeatRun[] {
  const runs: HeatRun[] = [];
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i] as number;
    const bucket = heatBucket(measure, values[i] as number);
    if (start < 0 || bucket === 0) continue;
    const last = runs[runs.length - 1];
    if (last && last.bucket === bucket && last.end >= start) last.end = Math.max(last.end, ends[i] as number);
    else runs.push({ start, end: ends[i] as number, bucket });
  }
  return runs;
}

/** The heat of a response whose tokens were (or could not be) placed on its text split into `steps`. */
export function responseHeat(tokens: ResponseTokens, placement: Placement, steps: readonly { start: number; end: number }[]): ResponseHeat {
  const tokenCount = Math.max(tokens.logprobs?.length ?? 0, tokens.entropies?.length ?? 0);
  const response = heatOf(tokens, () => true);
  if (!placement.isPlaced) return { tokenCount, response, placement };
  const measure: HeatMeasure = tokens.logprobs ? 'logprob' : 'entropy';
  const values = (tokens.logprobs ?? tokens.entropies) as number[];
  return {
    tokenCount,
    response,
    placement: { isPlaced: true, steps: stepHeats(tokens, placement.starts, steps), runs: heatRuns(values, measure, placement.starts, placement.ends), measure },
  };
}
