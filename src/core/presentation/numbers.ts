/**
 * How numbers are shown on every surface: scores with two decimals, shares as percentages, a dash
 * where there is no number.
 */

/** Two decimals, or a dash when there is no number. */
export function formatScore(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2) : '—';
}

/** A share as a percentage with one decimal, or a dash. */
export function formatPercent(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : '—';
}

/** Untrusted text flattened to one line and shortened (a dash when empty). */
export function clip(text: string | null | undefined, max: number): string {
  if (text === null || text === undefined || text === '') return '—';
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '—';
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** How well a score separates correct from incorrect answers (AUROC), in words a reader can act on. */
export function aurocWords(auroc: number | null): string {
  if (auroc === null) return 'not defined: the file needs both correct and incorrect ranked rollouts';
  if (auroc >= 0.9) return 'separates correct from incorrect well';
  if (auroc >= 0.7) return 'separates them fairly';
  if (auroc > 0.55) return 'separates them weakly';
  if (auroc >= 0.45) return 'hardly separates them (0.5 is chance)';
  return 'ranks incorrect answers above correct ones';
}

/** The most decimals a score is shown with beside a threshold before it is said in words. */
const MAX_SCORE_DECIMALS = 8;

/**
 * A score shown beside the threshold it is compared with: two decimals, or as many more as it
 * takes for the shown number to fall on the same side of the threshold (0.4999 below 0.5 is
 * `0.4999`, never `0.50`); `just below 0.5` when even eight decimals would round across it.
 */
export function formatScoreBeside(value: number | null | undefined, threshold: number): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—';
  const isBelow = value < threshold;
  for (let decimals = 2; decimals <= MAX_SCORE_DECIMALS; decimals++) {
    const shown = value.toFixed(decimals);
    if (Number(shown) < threshold === isBelow) return shown;
  }
  return `${isBelow ? 'just below' : 'at'} ${threshold}`;
}

/**
 * Two scores where the first is below the second, shown with the digits it takes for the shown
 * numbers to keep that order (`0.598` and `0.6001`: `0.598`, `0.600`; never `0.60` below `0.60`).
 */
export function formatScoresApart(lower: number, higher: number): [string, string] {
  for (let decimals = 2; decimals <= MAX_SCORE_DECIMALS; decimals++) {
    const a = lower.toFixed(decimals);
    const b = higher.toFixed(decimals);
    if (Number(a) < Number(b)) return [a, b];
  }
  return [String(lower), String(higher)];
}
