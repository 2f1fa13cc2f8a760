/**
 * The Compare Rules view's content, pure: each rule's card (its parameters as decided, its figures,
 * what it could not read, where ties decided a keep) and the overlap matrix's cells. Tested
 * without a browser; `rulesMain.ts` only builds nodes from it.
 */
import type { RuleFigures, RuleOverlap, RulesFigures } from '../../src/core/rules/compareRules';
import type { RuleParams } from '../../src/core/rules/rule';
import { ruleWithParams, tieText } from '../../src/core/rules/ruleWords';
import { formatPercent } from '../../src/core/presentation/numbers';

export interface RuleCard {
  rule: string;
  title: string;
  /** `gfpo (num_remains_in_group=4, group_filter_func=length)`. */
  heading: string;
  isChosen: boolean;
  /** Each figure: a key (what the page marks it with), its label, its value. */
  figures: [string, string, string][];
  notes: string[];
}

/** The figures of one rule as label → value pairs, and its notes. */
export function ruleCard(f: RuleFigures, params: RuleParams | undefined, chosen: string, rollouts: number): RuleCard {
  const kept = f.keptCorrect + f.keptIncorrect;
  return {
    rule: f.rule,
    title: f.title,
    heading: ruleWithParams(f.rule, params),
    isChosen: f.rule === chosen,
    figures: [
      ['kept', 'kept', `${f.kept} of ${rollouts}`],
      ['dropped', 'dropped', String(f.dropped)],
      ['balance', 'kept correct / incorrect', `${f.keptCorrect} / ${f.keptIncorrect}${kept > 0 ? ` (${formatPercent(f.keptCorrect / kept)} correct)` : ''}`],
      ['suspected', 'suspected FP kept', String(f.falsePositivesKept)],
      ['whole', 'groups dropped whole', String(f.groupsDroppedWhole)],
    ],
    notes: [...f.missing, ...(f.groupsTieBroken > 0 ? [tieText(f.groupsTieBroken)] : [])],
  };
}

/** One cell of the matrix: the diagonal is a rule's kept count; elsewhere both rules' overlap. */
export type MatrixCell =
  | { kind: 'self'; kept: number }
  | { kind: 'pair'; a: string; b: string; both: number; onlyRow: number; onlyColumn: number; differ: number };

/** The overlap of rule `row` with rule `column` (each overlap is stored once, for a before b). */
export function matrixCell(figures: RulesFigures, row: string, column: string): MatrixCell {
  if (row === column) return { kind: 'self', kept: figures.rules.find((r) => r.rule === row)?.kept ?? 0 };
  const o: RuleOverlap | undefined = figures.overlaps.find((x) => (x.a === row && x.b === column) || (x.a === column && x.b === row));
  if (!o) return { kind: 'pair', a: row, b: column, both: 0, onlyRow: 0, onlyColumn: 0, differ: 0 };
  const isRowFirst = o.a === row;
  const onlyRow = isRowFirst ? o.onlyA : o.onlyB;
  const onlyColumn = isRowFirst ? o.onlyB : o.onlyA;
  return { kind: 'pair', a: row, b: column, both: o.both, onlyRow, onlyColumn, differ: onlyRow + onlyColumn };
}

/** A pair cell's description (its tooltip and accessible name). */
export function pairWords(cell: Extract<MatrixCell, { kind: 'pair' }>): string {
  return `${cell.both} kept by both ${cell.a} and ${cell.b}; ${cell.onlyRow} kept only by ${cell.a}, ${cell.onlyColumn} only by ${cell.b}`
    + (cell.differ > 0 ? ` — open the ${cell.differ} they disagree on in the Rollout Explorer` : ' — they agree on every rollout');
}
