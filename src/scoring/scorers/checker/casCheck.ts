/**
 * Claims the exact evaluator cannot settle (`\sqrt{8} = 2\sqrt{2}`, `\pi \cdot 3^2 \approx 28.27`,
 * `\binom{5}{2} = 10`) are decided numerically by the computer algebra system. The engine's part
 * (a side's value) runs in the CAS worker on a time budget; the comparison of the two values runs
 * here.
 */
import type { ComputeEngine } from '@cortex-js/compute-engine';
import { casScreen } from '../../../core/cas/casLimits';
import type { Claim } from './claims';
import { tokenize } from './tokens';
import { literal, type Verdict } from './verdict';

/** Relative difference below which two CAS values are the same number. */
const SAME = 1e-9;

/** The LaTeX the CAS is given for one side of a claim (math delimiters dropped). */
export function casLatex(side: string): string {
  return side.replace(/\\?\$/g, '');
}

/** Decide a claim from the CAS's values of its sides; unchecked when either is not a plain number. */
export function judgeFromValues(claim: Claim, lhs: number | null, rhs: number | null): Verdict {
  if (!claim.latex) return { status: 'unchecked', reason: 'no LaTeX' };
  if (lhs === null || rhs === null) return { status: 'unchecked', reason: 'not a number to the CAS' };
  const diff = Math.abs(lhs - rhs);
  if (diff <= SAME * Math.max(1, Math.abs(lhs), Math.abs(rhs))) return { status: 'holds' };
  const shown = [writtenDecimals(claim.latex.rhs), writtenDecimals(claim.latex.lhs)].filter((d) => d !== null);
  const roundingUnit = shown.length > 0 ? 10 ** -Math.max(...shown) : 0;
  const tolerance = claim.relation === 'approx' ? Math.max(roundingUnit, 0.02 * Math.max(Math.abs(lhs), Math.abs(rhs))) : roundingUnit;
  if (diff < tolerance) return { status: 'holds' };
  return { status: 'false', actual: formatNumber(lhs), stated: formatNumber(rhs) };
}

/** Decide a claim on an engine in this thread (tests and tools; the analysis uses the CAS worker). */
export function judgeWithCas(ce: ComputeEngine, claim: Claim): Verdict {
  if (!claim.latex) return { status: 'unchecked', reason: 'no LaTeX' };
  return judgeFromValues(claim, casValue(ce, casLatex(claim.latex.lhs)), casValue(ce, casLatex(claim.latex.rhs)));
}

/** The real value of a LaTeX expression without variables, or null (the engine's side). */
export function casValue(ce: ComputeEngine, latex: string): number | null {
  if (casScreen(latex) !== null) return null;
  try {
    const expr = ce.parse(latex);
    if (!expr.isValid || expr.unknowns.length > 0) return null;
    const value = expr.N();
    const re = Number(value.re);
    const im = Number(value.im);
    if (!Number.isFinite(re) || (Number.isFinite(im) && Math.abs(im) > 1e-12) || Number.isNaN(im)) return null;
    return re;
  } catch {
    return null;
  }
}

/** Decimals a side shows when it is a single written number (a rounded value); null otherwise. */
function writtenDecimals(latex: string): number | null {
  return literal(tokenize(latex.trim()).filter((t) => t.kind !== 'space'))?.decimals ?? null;
}

function formatNumber(x: number): string {
  return Number.isInteger(x) ? String(x) : `≈ ${Number(x.toPrecision(8))}`;
}
