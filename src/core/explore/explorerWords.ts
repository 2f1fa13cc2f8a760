/**
 * The Rollout Explorer in words: reasons in short, and the short title a query gives its view
 * (`suspected FP · H ≥ 20 · 312`); each column's header and cell words are declared with the
 * column (`explorerColumns.ts`). Every surface that shows explorer rows (the webview's table, a
 * terminal) renders these texts; none words a fact itself.
 */
import type { OutcomeKind, ReasonCode } from '../model';
import type { ExplorerQuery, TextQuery } from './explorerQuery';
import { columnHeader, rangeSubject, type NumericColumn } from './explorerColumns';
import { capText } from '../presentation/capText';
import { shortGroupName } from '../presentation/groupNames';
import { DETECTOR_NAMES } from '../health/healthTypes';
import { disagreementText } from '../rules/ruleWords';
import { REASON_WORDS } from '../catalogWords';

/** A reason code in the fewest words a title or a filter chip needs (each rule declares its own: rules/catalog/). */
export function reasonShort(reason: ReasonCode): string {
  return REASON_WORDS[reason].short;
}

const OUTCOME_SHORT: Readonly<Record<OutcomeKind, string>> = { correct: 'correct', incorrect: 'incorrect', unknown: 'outcome unknown', 'non-binary': 'not binary' };

/** A number as a bound in a title: as the user gave it. */
function boundText(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : String(value);
}

/** `H ≥ 20`, `H ≤ 5`, `H = 4`, `20 ≤ H ≤ 30`. */
export function rangeText(range: { column: NumericColumn; min?: number; max?: number }): string {
  const subject = rangeSubject(range.column);
  const { min, max } = range;
  if (min !== undefined && max !== undefined) return min === max ? `${subject} = ${boundText(min)}` : `${boundText(min)} ≤ ${subject} ≤ ${boundText(max)}`;
  return min !== undefined ? `${subject} ≥ ${boundText(min)}` : `${subject} ≤ ${boundText(max ?? Infinity)}`;
}

/** `"sympy"`, `/sym.?py/ in response`: quoted as JSON, so a control character shows as its escape. */
export function searchText(search: TextQuery): string {
  const shown = capText(search.text, 40);
  const text = search.mode === 'regex' ? `/${JSON.stringify(shown).slice(1, -1)}/` : JSON.stringify(shown);
  return search.fields?.length === 1 ? `${text} in ${search.fields[0]}` : text;
}

const YES_NO: Readonly<Record<'kept' | 'suspectedFalsePositive' | 'penalised' | 'unscored', [string, string]>> = {
  kept: ['kept', 'not kept'],
  suspectedFalsePositive: ['suspected FP', 'not suspected FP'],
  penalised: ['penalised', 'not penalised'],
  unscored: ['unscored', 'scored'],
};

/**
 * How a title names the group a query keeps: by the group's question (`groupName`: the group's
 * name by its readable id, '' when it has none), shortened; `isWhole`: the whole name and the id,
 * for a tooltip.
 */
export interface GroupNaming {
  groupName: (id: string) => string;
  isWhole?: boolean;
}

/** Characters of a group's name a title shows. */
const TITLE_GROUP_CHARS = 40;

function groupPart(id: string, naming: GroupNaming | undefined): string {
  const name = naming?.groupName(id) ?? '';
  if (naming?.isWhole) return name ? `group ${capText(id, 40)}: ${name}` : `group ${capText(id, 40)}`;
  return `group ${name ? shortGroupName(name, id, TITLE_GROUP_CHARS) : capText(id, 40)}`;
}

/** The filter's conditions in words, in canonical order (the query is taken as canonical). */
export function filterParts(query: ExplorerQuery, naming?: GroupNaming): string[] {
  const f = query.filter;
  const parts: string[] = [];
  if (f.outcomes) parts.push(f.outcomes.map((o) => OUTCOME_SHORT[o]).join(' or '));
  if (f.reasons) parts.push(f.reasons.map(reasonShort).join(' or '));
  for (const key of ['kept', 'suspectedFalsePositive', 'penalised', 'unscored'] as const) {
    const value = f[key];
    if (value !== undefined) parts.push(YES_NO[key][value ? 0 : 1]);
  }
  if (f.group !== undefined) parts.push(groupPart(f.group, naming));
  for (const r of f.ranges ?? []) parts.push(rangeText(r));
  if (f.search) parts.push(searchText(f.search));
  if (f.rollouts) parts.push(capText(f.rollouts.label, 80));
  if (f.health) parts.push(f.health.map((id) => DETECTOR_NAMES[id]).join(' or '));
  if (f.disagree) parts.push(disagreementText(f.disagree));
  return parts;
}

/** `by H ↓`; null for file order. */
export function sortText(query: ExplorerQuery): string | null {
  if (!query.sort) return null;
  return `by ${columnHeader(query.sort.column)} ${query.sort.descending ? '↓' : '↑'}`;
}

/**
 * The view's title: the conditions, the sort when it is not file order, and how many rollouts
 * pass: `suspected FP · H ≥ 20 · 312`, `all rollouts · 1,000,000`, `group Natalia sold clips to 48 of her… · 8`.
 */
export function queryTitle(query: ExplorerQuery, total: number, naming?: GroupNaming): string {
  const parts = filterParts(query, naming);
  if (parts.length === 0) parts.push('all rollouts');
  const sort = sortText(query);
  if (sort) parts.push(sort);
  parts.push(total.toLocaleString('en-US'));
  return parts.join(' · ');
}

/** What the title adds when reward columns were left out (null when none was). */
export function rewardColumnsNote(shown: number, leftOut: number): string | null {
  if (leftOut === 0) return null;
  return `${shown} reward columns shown, the first named; ${leftOut.toLocaleString('en-US')} more names left out (at most ${shown} are kept)`;
}
