/**
 * Splitting a response into reasoning steps (DESIGN §4), each with its [start, end) offsets in the
 * decoded response so it can be tinted in place.
 */
import type { Step } from './model';
import type { SplitRule } from './settings';

/** Math-Shepherd's step tag. */
export const KI_TAG = 'ки';

/** Split `response` by `rule`. Explicit steps (from the record) win when given. */
export function splitSteps(response: string, rule: SplitRule, explicit?: readonly string[] | null): Step[] {
  if (explicit) return locateExplicit(response, explicit);
  switch (rule) {
    case 'newline':
      return splitOn(response, /\n/g);
    case 'step-markers':
      return splitBeforeMarkers(response);
    case 'ki':
      return splitOn(response, /ки/g);
    case 'double-newline':
      return splitOn(response, /\n\n/g);
    default:
      return rule.startsWith('regex:') ? splitOn(response, new RegExp(rule.slice(6), 'g')) : splitOn(response, /\n\n/g);
  }
}

/** Split at separator matches, trim pieces, drop empty ones; nothing left → the whole trimmed text. */
function splitOn(text: string, separator: RegExp): Step[] {
  const steps: Step[] = [];
  let from = 0;
  for (const match of text.matchAll(separator)) {
    if (match[0].length === 0) continue;
    pushTrimmed(text, from, match.index, steps);
    from = match.index + match[0].length;
  }
  pushTrimmed(text, from, text.length, steps);
  if (steps.length === 0) {
    const span = trimSpan(text, 0, text.length);
    steps.push({ index: 0, text: text.slice(span.start, span.end), start: span.start, end: span.end });
  }
  return steps;
}

/** "Step 1: …", "Step 2: …": each marker starts a step; text before the first marker is its own step. */
function splitBeforeMarkers(text: string): Step[] {
  const starts = [...text.matchAll(/(^|\n)\s*(\*\*)?Step\s+\d+\s*[:.)]/gi)].map((m) => m.index + m[1]!.length);
  if (starts.length === 0) return splitOn(text, /\n\n/g);
  const steps: Step[] = [];
  const bounds = [0, ...starts.filter((s) => s > 0), text.length];
  for (let i = 0; i + 1 < bounds.length; i++) pushTrimmed(text, bounds[i]!, bounds[i + 1]!, steps);
  return steps.length ? steps : splitOn(text, /\n\n/g);
}

function pushTrimmed(text: string, start: number, end: number, out: Step[]): void {
  const span = trimSpan(text, start, end);
  if (span.end > span.start) out.push({ index: out.length, text: text.slice(span.start, span.end), start: span.start, end: span.end });
}

function trimSpan(text: string, start: number, end: number): { start: number; end: number } {
  let s = start;
  let e = end;
  while (s < e && isSpace(text.charCodeAt(s))) s++;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  return { start: s, end: e };
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xa0;
}

/** Explicit steps: find each in the response in order; a step not found gets an empty span at the cursor. */
function locateExplicit(response: string, explicit: readonly string[]): Step[] {
  let cursor = 0;
  return explicit.map((text, index) => {
    const at = text.length ? response.indexOf(text, cursor) : -1;
    if (at === -1) return { index, text, start: cursor, end: cursor };
    cursor = at + text.length;
    return { index, text, start: at, end: cursor };
  });
}

const SEPARATORS: Record<string, string> = { 'double-newline': '\n\n', newline: '\n', ki: KI_TAG };

/**
 * How many steps `splitSteps` would return, without building them: reports on large dumps whose
 * records carry their own step scores need only the count (to check it against the scores).
 */
export function countSteps(response: string, rule: SplitRule, explicit?: readonly string[] | null): number {
  if (explicit) return explicit.length;
  const separator = SEPARATORS[rule];
  if (separator === undefined) return splitSteps(response, rule).length;
  let count = 0;
  let from = 0;
  for (;;) {
    const at = response.indexOf(separator, from);
    const end = at === -1 ? response.length : at;
    if (hasNonSpace(response, from, end)) count++;
    if (at === -1) break;
    from = at + separator.length;
  }
  return count === 0 ? 1 : count;
}

function hasNonSpace(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSpace(text.charCodeAt(i))) return true;
  return false;
}
