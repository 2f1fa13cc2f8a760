/**
 * The two statistics the report needs: AUROC (does the step score separate correct from
 * incorrect rollouts?) and calibration bins (when the PRM says 0.8, how often is the answer right?).
 */

/**
 * Area under the ROC curve of `scores` as a predictor of `labels` (Mann–Whitney U with average
 * ranks for ties). Null when either class is empty.
 */
export function auroc(scores: readonly number[], labels: readonly boolean[]): number | null {
  const n = scores.length;
  let positives = 0;
  for (const l of labels) if (l) positives++;
  const negatives = n - positives;
  if (positives === 0 || negatives === 0) return null;
  const rankSumPositive = rankSumBySortedClasses(scores, labels) ?? rankSumByOrder(scores, labels);
  return (rankSumPositive - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** The positives' sum of average ranks, from one index order sorted by score (any scores). */
function rankSumByOrder(scores: readonly number[], labels: readonly boolean[]): number {
  const n = scores.length;
  const order = scores.map((_, i) => i).sort((a, b) => (scores[a] as number) - (scores[b] as number));
  let rankSumPositive = 0;
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && scores[order[j + 1] as number] === scores[order[i] as number]) j++;
    const averageRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (labels[order[k] as number]) rankSumPositive += averageRank;
    i = j + 1;
  }
  return rankSumPositive;
}

/**
 * The same sum from the two classes' scores sorted natively and walked together (every report
 * computes one per file, or per step of a run). The ranks and their sum are the same numbers, added
 * in the same order. Null when a score is NaN, whose place in a sort is not defined.
 */
function rankSumBySortedClasses(scores: readonly number[], labels: readonly boolean[]): number | null {
  const n = scores.length;
  let p = 0;
  for (let i = 0; i < n; i++) if (labels[i]) p++;
  const pos = new Float64Array(p);
  const neg = new Float64Array(n - p);
  let a = 0;
  let b = 0;
  for (let i = 0; i < n; i++) {
    const s = scores[i] as number;
    if (Number.isNaN(s)) return null;
    if (labels[i]) pos[a++] = s;
    else neg[b++] = s;
  }
  pos.sort();
  neg.sort();
  let rankSumPositive = 0;
  let rank = 0;
  a = 0;
  b = 0;
  while (a < pos.length || b < neg.length) {
    // The next value of the merged order; -0 and 0 are one value, as in the comparison by ===.
    const value = b >= neg.length || (a < pos.length && (pos[a] as number) <= (neg[b] as number)) ? (pos[a] as number) : (neg[b] as number);
    let inPos = 0;
    while (a < pos.length && pos[a] === value) (a++, inPos++);
    let inNeg = 0;
    while (b < neg.length && neg[b] === value) (b++, inNeg++);
    const averageRank = (rank + (rank + inPos + inNeg - 1)) / 2 + 1;
    for (let k = 0; k < inPos; k++) rankSumPositive += averageRank;
    rank += inPos + inNeg;
  }
  return rankSumPositive;
}

export interface CalibrationBin {
  /** Bin bounds [low, high) (the last bin includes 1). */
  low: number;
  high: number;
  count: number;
  /** Mean score of the rollouts in the bin. */
  meanScore: number | null;
  /** Fraction of them that are correct. */
  fractionCorrect: number | null;
}

/** Equal-width bins over [0, 1]; scores outside are clamped into the end bins. */
export function calibration(scores: readonly number[], labels: readonly boolean[], bins: number): CalibrationBin[] {
  const sums = new Array<number>(bins).fill(0);
  const counts = new Array<number>(bins).fill(0);
  const correct = new Array<number>(bins).fill(0);
  // A plain loop: a report runs this once, mostly before the engine optimises it.
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i] as number;
    const b = Math.min(bins - 1, Math.max(0, Math.floor(s * bins)));
    sums[b]! += s;
    counts[b]!++;
    if (labels[i]) correct[b]!++;
  }
  return counts.map((c, b) => ({
    low: b / bins,
    high: (b + 1) / bins,
    count: c,
    meanScore: c ? (sums[b] as number) / c : null,
    fractionCorrect: c ? (correct[b] as number) / c : null,
  }));
}
