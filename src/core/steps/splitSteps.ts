/**
 * Splitting a response into reasoning steps (docs/steps.md), each with its [start, end) offsets in the
 * decoded response so it can be tinted in place.
 */
import type { RE2JS } from 're2js';
import type { Step } from '../model';
import { isSpace, trimSpan } from '../transcript/textSpan';

export { trimSpan };

/** `double-newline` (default), `newline`, `step-markers`, `ki` (Math-Shepherd), or `regex:<pattern>`. */
export type SplitRule = string;

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
      return rule.startsWith('regex:') ? splitOnSeparators(response, userSeparators(response, rule.slice(6))) : splitOn(response, /\n\n/g);
  }
}

/**
 * A user's split pattern is untrusted text run over untrusted text: it runs on RE2 (re2js), whose
 * matching time is linear in the response whatever the pattern (`(a+)+$` included). Patterns RE2
 * cannot express (backreferences, lookaround) are refused when the settings are read.
 */
const compiledPatterns = new Map<string, RE2JS>();

/**
 * re2js is loaded on the first `regex:` split, not with this module: building its tables cost every
 * command and worker some 6 ms at start, and most never split by a pattern. (`require` is declared
 * here, not taken from Node's types, which core does not use; every bundle and the test runner
 * provide it.)
 */
declare const require: (id: 're2js') => typeof import('re2js');
let engine: typeof RE2JS | null = null;

/** The RE2 form of a user pattern, or why it cannot be one. */
export function compileSplitPattern(pattern: string): RE2JS | Error {
  const known = compiledPatterns.get(pattern);
  if (known) return known;
  try {
    const compiled = (engine ??= require('re2js').RE2JS).compile(pattern);
    if (compiledPatterns.size >= 32) compiledPatterns.clear();
    compiledPatterns.set(pattern, compiled);
    return compiled;
  } catch (error) {
    const reason = (error as { error?: unknown }).error;
    return new Error(typeof reason === 'string' ? reason : 'not a regular expression');
  }
}

/** The [start, end) of each match of a user pattern (none when the pattern does not compile). */
function userSeparators(text: string, pattern: string): [number, number][] {
  const compiled = compileSplitPattern(pattern);
  if (compiled instanceof Error) return [];
  const matcher = compiled.matcher(text);
  const found: [number, number][] = [];
  while (matcher.find()) found.push([matcher.start(), matcher.end()]);
  return found;
}

/** Split at separator matches, trim pieces, drop empty ones; nothing left → the whole trimmed text. */
function splitOn(text: string, separator: RegExp): Step[] {
  return splitOnSeparators(text, [...text.matchAll(separator)].map((m) => [m.index, m.index + m[0].length]));
}

function splitOnSeparators(text: string, separators: readonly [number, number][]): Step[] {
  const steps: Step[] = [];
  let from = 0;
  for (const [start, end] of separators) {
    if (end === start) continue;
    pushTrimmed(text, from, start, steps);
    from = end;
  }
  pushTrimmed(text, from, text.length, steps);
  if (steps.length === 0) {
    const span = trimSpan(text, 0, text.length);
    steps.push({ index: 0, text: text.slice(span.start, span.end), start: span.start, end: span.end });
  }
  return steps;
}

/**
 * A line that starts with a step marker. Only spaces and tabs may precede it on its line: `\s*` there
 * also crossed line breaks, so every newline of a long run of them rescanned the rest of the run
 * (quadratic). Blank lines before a marker end up trimmed off the previous step either way.
 */
const STEP_MARKER = /(^|\n)[ \t]*(\*\*)?Step[ \t]+\d+[ \t]*[:.)]/gi;

/** "Step 1: …", "Step 2: …": each marker starts a step; text before the first marker is its own step. */
function splitBeforeMarkers(text: string): Step[] {
  const starts = [...text.matchAll(STEP_MARKER)].map((m) => m.index + m[1]!.length);
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

/**
 * The steps of a multi-turn response: each assistant turn split by `rule` on its own, offsets in
 * the whole response, numbered across turns. Tool calls, tool replies and user turns are no steps.
 */
export function splitAssistantSteps(response: string, turns: readonly { role: string; start: number; end: number }[], rule: SplitRule): Step[] {
  const steps: Step[] = [];
  for (const turn of turns) {
    if (turn.role !== 'assistant' || !hasNonSpace(response, turn.start, turn.end)) continue;
    for (const step of splitSteps(response.slice(turn.start, turn.end), rule)) {
      steps.push({ index: steps.length, text: step.text, start: step.start + turn.start, end: step.end + turn.start });
    }
  }
  return steps;
}
