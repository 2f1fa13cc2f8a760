/**
 * Leaf comparisons with the computer algebra system. The engine decides many identities
 * symbolically, but not polynomial or trigonometric ones (`x^2-1` vs `(x-1)(x+1)` comes back
 * undecided), so both sides are also evaluated at fixed pseudo-random points of their variables.
 * Every engine call is guarded: a parse failure or an engine error means "undecided".
 */
import type { ComputeEngine, Expression } from '@cortex-js/compute-engine';
import type { LeafComparer, RelationNode, Tri } from './answerEquality';
import { fastAtomsEqual } from './answerEquality';
import { casScreen } from '../cas/casLimits';
import { parseNumber, relativeClose, ROUNDING_MIN_DECIMALS, withinRounding } from './numeric';

/** Relative tolerance for values the engine computes (floating point, not written decimals). */
export const CAS_RELATIVE_TOLERANCE = 1e-6;

/**
 * Values given to free variables: positive and away from small integers, so that square roots,
 * logarithms and denominators are defined and accidental coincidences are unlikely.
 */
const SAMPLE_VALUES = [0.6173, 1.3297, 2.4519, 0.8846, 1.7713, 2.9051, 1.1189, 0.4427, 2.2063, 1.5531];
const SAMPLE_POINTS = 3;

/** Parses LaTeX once per distinct string; the cache may be shared across comparisons. */
export type CasParser = (latex: string) => Expression | null;

/** A parser for `ce`, memoised in `cache` when one is given. */
export function casParser(ce: ComputeEngine, cache?: Map<string, Expression | null>, cap = 20_000): CasParser {
  return (latex) => {
    const hit = cache?.get(latex);
    if (hit !== undefined) return hit;
    let parsed: Expression | null = null;
    try {
      // The screen again, for the sub-expressions the comparison builds (`(a)-(b)`).
      if (casScreen(latex) !== null) throw new Error('screened');
      const e = ce.parse(latex);
      parsed = e.isValid ? e : null;
    } catch {
      parsed = null;
    }
    if (cache !== undefined) {
      if (cache.size >= cap) cache.clear();
      cache.set(latex, parsed);
    }
    return parsed;
  };
}

/** Leaf comparer: the cheap checks first, then the engine. */
export function casLeaves(ce: ComputeEngine, parse: CasParser): LeafComparer {
  return {
    atoms: (a, b) => fastAtomsEqual(a, b) ?? casAtomsEqual(ce, parse, a, b),
    relations: (a, b) => casRelationsEqual(ce, parse, a, b),
  };
}

function casAtomsEqual(ce: ComputeEngine, parse: CasParser, a: string, b: string): Tri {
  const x = parse(a);
  const y = parse(b);
  if (x === null || y === null) return null;
  if (safe(() => x.isEqual(y)) === true) return true;
  const sampled = sampleEqual(ce, x, y, tolerance(a, b));
  if (sampled !== null) return sampled;
  return safe(() => x.isEqual(y)) === false ? false : null;
}

/** A written decimal of enough places may be a rounding of the other side's exact value. */
function tolerance(a: string, b: string): (u: number, v: number) => boolean {
  const places = Math.max(parseNumber(a)?.decimals ?? 0, parseNumber(b)?.decimals ?? 0);
  return (u, v) =>
    relativeClose(u, v, CAS_RELATIVE_TOLERANCE) || (places >= ROUNDING_MIN_DECIMALS && withinRounding(u, v, places));
}

function sampleEqual(ce: ComputeEngine, x: Expression, y: Expression, close: (u: number, v: number) => boolean): Tri {
  const names = variables(x, y);
  for (let p = 0; p < SAMPLE_POINTS; p++) {
    const point = assignment(ce, names, p);
    const u = numericValue(x, point);
    const v = numericValue(y, point);
    if (u === null || v === null) return null;
    if (!close(u.re, v.re) || !close(u.im, v.im)) return false;
    if (names.length === 0) return true;
  }
  return true;
}

function casRelationsEqual(ce: ComputeEngine, parse: CasParser, a: RelationNode, b: RelationNode): Tri {
  const x = parse(`(${a.lhs})-(${a.rhs})`);
  const y = parse(`(${b.lhs})-(${b.rhs})`);
  if (x === null || y === null) return null;
  const names = variables(x, y);
  if (names.length === 0) return null;
  // Same relation when one side is a constant multiple of the other: positive for inequalities.
  let ratio: number | null = null;
  for (let p = 0; p < SAMPLE_POINTS; p++) {
    const point = assignment(ce, names, p);
    const u = numericValue(x, point);
    const v = numericValue(y, point);
    if (u === null || v === null || u.im !== 0 || v.im !== 0) return null;
    if (Math.abs(u.re) < 1e-12 && Math.abs(v.re) < 1e-12) continue;
    if (Math.abs(u.re) < 1e-12 || Math.abs(v.re) < 1e-12) return false;
    const r = u.re / v.re;
    if (ratio !== null && !relativeClose(r, ratio, CAS_RELATIVE_TOLERANCE)) return false;
    ratio = r;
  }
  if (ratio === null) return null;
  return a.op === '=' || a.op === '\\ne' ? true : ratio > 0;
}

function variables(x: Expression, y: Expression): string[] {
  const names = new Set<string>([...(safe(() => x.unknowns) ?? []), ...(safe(() => y.unknowns) ?? [])]);
  return [...names].sort();
}

function assignment(ce: ComputeEngine, names: string[], point: number): Record<string, Expression> {
  const values: Record<string, Expression> = {};
  names.forEach((name, i) => {
    const value = SAMPLE_VALUES[(i * 3 + point * 7) % SAMPLE_VALUES.length] ?? 1.5;
    values[name] = ce.number(value + 0.01 * i);
  });
  return values;
}

interface Complex {
  re: number;
  im: number;
}

function numericValue(e: Expression, point: Record<string, Expression>): Complex | null {
  const value = safe(() => {
    const n = (Object.keys(point).length === 0 ? e : e.subs(point)).N();
    return { re: n.re, im: n.im };
  });
  if (value === undefined || !Number.isFinite(value.re)) return null;
  return { re: value.re, im: Number.isFinite(value.im) ? value.im : 0 };
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
