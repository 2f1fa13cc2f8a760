/**
 * How evaluation harnesses compare a numeric `pred` with the gold: the numeric branch of
 * `math_equal` in ToRA's and Qwen2.5-Math's evaluation code (`eval/grader.py`). Both sides are read
 * as floats once thousands commas are removed; they are equal when the prediction is within a
 * relative 1e-4 of the gold, of the gold / 100 or of the gold × 100 (`include_percentage`, so `0.7`
 * is accepted for a gold of `70` percent). Applied only to the answer the harness itself stored
 * (`answerFrom: 'pred'`), so that grading a harness dump reproduces the accuracy the harness printed.
 */

/** `rel_tol` of the harnesses' `isclose`. */
export const HARNESS_RELATIVE_TOLERANCE = 1e-4;

const FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The harness's `float(s.replace(",", ""))`, for plain decimal numbers; null when it is not one. */
function harnessFloat(text: string): number | null {
  const t = text.replace(/,/g, '').trim();
  if (!FLOAT.test(t)) return null;
  const value = Number(t);
  return Number.isFinite(value) ? value : null;
}

/** Python's `math.isclose(a, b, rel_tol)` with `abs_tol = 0`. */
function isClose(a: number, b: number, relTol: number): boolean {
  return Math.abs(a - b) <= relTol * Math.max(Math.abs(a), Math.abs(b));
}

/**
 * The harness's verdict on a numeric prediction: true or false when both sides are plain numbers,
 * null otherwise (the harness then compares symbolically, and so does the grader here).
 */
export function harnessNumericEqual(pred: string, gold: string): boolean | null {
  const p = harnessFloat(pred);
  const g = harnessFloat(gold);
  if (p === null || g === null) return null;
  return [g / 100, g, g * 100].some((candidate) => isClose(candidate, p, HARNESS_RELATIVE_TOLERANCE));
}
