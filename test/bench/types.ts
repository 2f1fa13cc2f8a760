/** One measured figure. Ratios are always against a baseline measured in the same run. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The baseline this figure is compared with, measured in the same run. */
  baseline?: { name: string; value: number };
  /** value / baseline.value (or the inverse for "lower is better" figures; say so in note). */
  ratio?: number;
  note?: string;
}

/** A benchmark module: exports `run` returning its figures. */
export type BenchModule = { run: () => Promise<BenchResult[]> };
