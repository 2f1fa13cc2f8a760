/**
 * Rewrites an answer's LaTeX into one canonical spelling, so that answers that differ only in
 * presentation (`\dfrac`, `\left(`, units, `^\circ`, `\$`, `\%`, spacing) compare as strings, and
 * what is left for the algebra system is plain mathematics.
 */
import { matchingBrace } from './boxed';

/** A normalised answer. */
export interface NormalizedAnswer {
  /** Canonical LaTeX, without insignificant whitespace. */
  text: string;
  /** The answer was written as a percentage (`10\%`, `10 percent`); `text` holds the number only. */
  isPercent: boolean;
}

const TEXT_COMMAND = /\\(?:text|textbf|textit|textnormal|textrm|mathrm|mathbf|mathit|mbox|operatorname|boldsymbol|mathsf)\s*\{/g;
const PERCENT = /\\%|%|\s*\b(?:percent(?:age)?|pct)\b/g;
const DEGREES = /\^\s*\{?\\circ\}?|\\circ|°|\\degree|\s*\bdegrees?\b/g;
const CURRENCY = /\\\$|\$|€|£|¥|\\euro\b/g;

/** Canonical form of one answer (already extracted from any surrounding prose). */
export function normalizeAnswer(raw: string): NormalizedAnswer {
  let s = raw.replace(/\u000c/g, '\\f');
  s = s.replace(/\\(?:left|right|big|Big|bigg|Bigg)(?![a-zA-Z])\.?/g, '');
  s = s.replace(/\\(?:displaystyle|limits)(?![a-zA-Z])/g, '');
  s = s.replace(/\\[dtc]frac(?![a-zA-Z])/g, '\\frac');
  s = s.replace(/\{,\}/g, '').replace(/(\d),\\!\s*(?=\d{3})/g, '$1').replace(/(\d)\\[,!]\s*(?=\d{3}\b)/g, '$1');
  s = s.replace(/(?<!\\)\\(?:\(|\)|\[|\])|\$\$/g, ' ');
  s = s.replace(/\\text\s*\{\s*(?:and|or)\s*\}|\s+\b(?:and|or)\b\s+|(?<=[)\]])\s*(?:and|or)\s*(?=[([])/g, ',');
  s = unwrapTextCommands(s);
  const isPercent = /\\%|%|\b(?:percent(?:age)?|pct)\b/.test(s);
  s = s.replace(PERCENT, '').replace(DEGREES, '').replace(CURRENCY, '');
  s = s.replace(/\\(?:quad|qquad)(?![a-zA-Z])/g, ',');
  s = s.replace(/(?<!\\)\\[,;:! ]/g, ' ').replace(/~/g, ' ');
  s = expandShorthand(s);
  s = canonicalRelations(s);
  s = dropTrailingUnits(s);
  // A whole answer like `7,425,000` is one number; `32, 349` (with a space) is a list.
  if (/^-?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$/.test(s.trim().replace(/[.\s]+$/, ''))) s = s.replace(/,/g, '');
  s = tidyEdges(s);
  return { text: compactSpaces(s), isPercent };
}

/**
 * `\text{...}` and friends: a lone letter in parentheses is a multiple-choice label, words after
 * a value are units (dropped), anything else is kept as plain text.
 */
function unwrapTextCommands(input: string): string {
  let s = input;
  for (let guard = 0; guard < 50; guard++) {
    TEXT_COMMAND.lastIndex = 0;
    const m = TEXT_COMMAND.exec(s);
    if (m === null) break;
    const open = m.index + m[0].length - 1;
    const close = matchingBrace(s, open);
    if (close < 0) break;
    const inner = s.slice(open + 1, close);
    const before = s.slice(0, m.index);
    let after = s.slice(close + 1);
    let replacement = inner;
    const choice = /^\s*\(([A-Za-z])\)\s*$/.exec(inner);
    if (choice !== null) replacement = choice[1] ?? inner;
    else if (isUnitText(inner) && /[\d})]\s*$/.test(before)) {
      replacement = '';
      after = after.replace(/^\s*\^\s*\{?[23]\}?/, '');
    }
    s = before + replacement + after;
  }
  return s;
}

function isUnitText(inner: string): boolean {
  return /^\s*[A-Za-z][A-Za-z.\s]*$/.test(inner) && !/^\s*(?:and|or|if|for)\s*$/i.test(inner);
}

/** `\frac12`, `\frac3{3}`, `\sqrt3`, `\sqrt 2`: TeX reads the next token as the argument. */
function expandShorthand(input: string): string {
  return input
    .replace(/\\frac\s*(\d)\s*(\d)/g, '\\frac{$1}{$2}')
    .replace(/\\frac\s*(\d)\s*\{/g, '\\frac{$1}{')
    .replace(/\\frac\s*(\{[^{}]*\})\s*(\d)/g, '\\frac$1{$2}')
    .replace(/\\frac\s*([a-zA-Z])\s*([a-zA-Z\d])/g, '\\frac{$1}{$2}')
    .replace(/\\sqrt\s*(\d+|[a-zA-Z](?![a-zA-Z]))/g, '\\sqrt{$1}');
}

function canonicalRelations(input: string): string {
  return input
    .replace(/\\(?:leqslant|leq|le)(?![a-zA-Z])|<=|≤/g, '\\le ')
    .replace(/\\(?:geqslant|geq|ge)(?![a-zA-Z])|>=|≥/g, '\\ge ')
    .replace(/\\(?:neq|ne)(?![a-zA-Z])|!=|≠/g, '\\ne ')
    .replace(/\\lt(?![a-zA-Z])/g, '<')
    .replace(/\\gt(?![a-zA-Z])/g, '>')
    .replace(/\\dots|\\ldots|\\cdots(?=\s*$)/g, '')
    .replace(/\+\s*\\infty/g, '\\infty');
}

/** `15 cm`, `0.06 yuan`, `125 miles`: words after a number are units unless they are the answer. */
function dropTrailingUnits(s: string): string {
  const m = /^(.*[\d}])\s+[A-Za-z]{2,}(?:\s+[A-Za-z]+)*\s*(?:\^\s*\{?[23]\}?)?[.\s]*$/.exec(s);
  if (m === null) return s;
  const head = m[1] ?? s;
  return /\\[a-zA-Z]+$/.test(head) ? s : head;
}

function tidyEdges(input: string): string {
  let s = input.replace(/\s+/g, ' ').trim();
  s = s.replace(/^[a-zA-Z]\s*\\in\s+/, '');
  s = s.replace(/(?:\s*,)+\s*/g, ',').replace(/^[,:;\s]+|[,.;:\s]+$/g, '');
  while (s.startsWith('{') && matchingBrace(s, 0) === s.length - 1) s = s.slice(1, -1).trim();
  return s;
}

/** Drops spaces except between a command and a following letter (`\sin b` must not become `\sinb`). */
function compactSpaces(s: string): string {
  return s.replace(/\s+/g, (space, offset: number) => {
    const before = s.slice(Math.max(0, offset - 24), offset);
    const next = s[offset + space.length] ?? '';
    return /\\[a-zA-Z]+$/.test(before) && /[a-zA-Z0-9]/.test(next) ? ' ' : '';
  });
}
