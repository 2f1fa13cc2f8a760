/**
 * Final-answer extraction from a model response. Each rule matches a convention seen in real
 * data: `\boxed{}` (MATH-style prompts), `# Answer` (PRM800K), `The answer is: X` (Math-Shepherd
 * and many chat models), `A: 18` / `#### 18` (GSM8K). Offsets let editors highlight the answer.
 */
import { findBoxes, lastBoxGroup } from './boxed';

/** Which convention an answer was found by. */
export type ExtractionMethod = 'boxed' | 'answer-heading' | 'the-answer-is' | 'a-colon' | 'last-number';

/** An answer found in a response; `[start, end)` are offsets into that response. */
export interface ExtractedAnswer {
  /**
   * The answer text. It equals `response.slice(start, end)`, except for a group of adjacent boxes
   * (`\boxed{1} and \boxed{2}`), whose contents are joined with `, ` and whose span covers them all.
   */
  text: string;
  start: number;
  end: number;
  method: ExtractionMethod;
}

/** Extraction settings. */
export interface ExtractOptions {
  /**
   * Fall back to the last number in the response. Off by default: on free-form reasoning the last
   * number is often an intermediate value, so an outcome graded from it is a guess.
   */
  lastNumber?: boolean;
}

/**
 * The final answer of `response`, or null when no convention matches. The last answer marker
 * wins, whichever convention it is: GSM8K prompts ask for `#### <answer>` on the last line, and an
 * earlier "the answer is …" phrase (or a box in an intermediate step) is not the final answer. A
 * later "the answer is" that holds no answer ("the answer is correct") is passed over.
 */
export function extractAnswer(response: string, options: ExtractOptions = {}): ExtractedAnswer | null {
  const found = [extractBoxed(response), extractAnswerHeading(response), extractAnswerIs(response), extractAColon(response)];
  let best: ExtractedAnswer | null = null;
  let fallback: ExtractedAnswer | null = null;
  for (const candidate of found) {
    if (candidate === null) continue;
    if (fallback === null || candidate.start > fallback.start) fallback = candidate;
    if (candidate.method === 'the-answer-is' && !looksLikeAnswer(candidate.text)) continue;
    if (best === null || candidate.start > best.start) best = candidate;
  }
  return best ?? fallback ?? (options.lastNumber === true ? extractLastNumber(response) : null);
}

/** Math, a number or a choice letter, rather than a word ("the answer is correct"). */
function looksLikeAnswer(text: string): boolean {
  return /[\d$\\]/.test(text) || /^\(?[A-Z]\)?$/.test(text);
}

/** The last `\boxed{}` (with the boxes just before it that are parts of the same answer). */
export function extractBoxed(response: string): ExtractedAnswer | null {
  const group = lastBoxGroup(response, findBoxes(response));
  const first = group[0];
  const last = group[group.length - 1];
  if (first === undefined || last === undefined) return null;
  const parts = group.map((b) => response.slice(b.contentStart, b.contentEnd).trim());
  // A Set, not indexOf: a response of thousands of distinct boxes made that quadratic.
  const distinct = [...new Set(parts.filter((p) => p.length > 0))];
  if (distinct.length === 0) return null;
  if (group.length === 1) return trimmed(response, first.contentStart, first.contentEnd, 'boxed');
  return { text: distinct.join(', '), start: first.contentStart, end: last.contentEnd, method: 'boxed' };
}

const ANSWER_HEADING = /(?:^|\n)#{1,6}[ \t]*Answer[ \t]*:?[ \t]*\n/gi;

/** PRM800K: the text after the last `# Answer` heading, up to a blank line. */
function extractAnswerHeading(response: string): ExtractedAnswer | null {
  // No `#`, no heading: a native search spares the pattern's try at every line start.
  if (response.indexOf('#') === -1) return null;
  const match = lastMatch(ANSWER_HEADING, response);
  if (match === null) return null;
  let start = match.index + match[0].length;
  while (start < response.length && /\s/.test(response[start] ?? '')) start++;
  const blank = /\n[ \t]*\n/.exec(response.slice(start));
  const end = blank === null ? response.length : start + blank.index;
  return trimmed(response, start, end, 'answer-heading');
}

const ANSWER_IS = /\b(?:the\s+)?(?:final\s+)?answer\s*(?:is\s*:?|:)[ \t]*/gi;
/**
 * Where the answer after "the answer is" stops: a line end, a step tag, boilerplate, a new sentence.
 * No alternative starts with `\s*`: tried at every space of a long run of them, that made the search
 * quadratic (the spaces before a stop are trimmed off the answer anyway).
 */
const ANSWER_STOP = /\n|\\n|ки|I hope|<\||\.\s+(?=[A-Z])|\.\s*$/;

/** "The answer is: X", "The final answer is X. I hope it is correct.", "Final answer: X". */
function extractAnswerIs(response: string): ExtractedAnswer | null {
  const match = lastMatch(ANSWER_IS, response);
  if (match === null) return null;
  const start = match.index + match[0].length;
  const stop = ANSWER_STOP.exec(response.slice(start));
  const end = stop === null ? response.length : start + stop.index;
  return trimmed(response, start, end, 'the-answer-is');
}

const A_COLON = /(?:^|\n|\\n)[ \t]*(?:A:(?=[ \t])|####)[ \t]*/g;

/** GSM8K: `A: 18` in the OpenAI model solutions, `#### 18` in the dataset's own solutions. */
function extractAColon(response: string): ExtractedAnswer | null {
  // The pattern needs `A:` or `####` as written (it is case-sensitive): without either, no try.
  if (response.indexOf('A:') === -1 && response.indexOf('####') === -1) return null;
  const match = lastMatch(A_COLON, response);
  if (match === null) return null;
  const start = match.index + match[0].length;
  const stop = /\n|\\n/.exec(response.slice(start));
  let end = stop === null ? response.length : start + stop.index;
  // Dumps of these solutions keep the string's Python quotes: `...\nA: 18'`.
  while (end > start && /['"\s.]/.test(response[end - 1] ?? '')) end--;
  return trimmed(response, start, end, 'a-colon');
}

/** Numbers as written in answers: `-3`, `1,000.5`, `.5`, `3/4`. */
export const NUMBER_PATTERN = /-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?(?:\/\d+)?|-?\.\d+/g;

/** The last number in the text (the weakest rule: callers opt in). */
export function extractLastNumber(response: string): ExtractedAnswer | null {
  const match = lastMatch(NUMBER_PATTERN, response);
  if (match === null) return null;
  return { text: match[0], start: match.index, end: match.index + match[0].length, method: 'last-number' };
}

function lastMatch(pattern: RegExp, text: string): RegExpExecArray | null {
  let last: RegExpExecArray | null = null;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    last = m;
    if (m[0].length === 0) pattern.lastIndex++;
  }
  return last;
}

function trimmed(text: string, start: number, end: number, method: ExtractionMethod): ExtractedAnswer | null {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s] ?? '')) s++;
  while (e > s && /\s/.test(text[e - 1] ?? '')) e--;
  if (s === e) return null;
  return { text: text.slice(s, e), start: s, end: e, method };
}
