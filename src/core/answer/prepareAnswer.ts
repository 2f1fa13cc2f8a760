/**
 * From a raw `pred` or `gold` string to the answer inside it. Predictions are often a whole
 * solution or a sentence ("Therefore $x \ge 5$ is the solution."), and gold fields are sometimes
 * a reference solution; both go through the same reading.
 */
import { isJoiningGap } from './boxed';
import { extractAnswer, NUMBER_PATTERN } from './extract';

/** Escapes that survive a round trip through JSON or Python literals written without raw strings. */
const DOUBLED_COMMAND = /(?<!\\)\\\\(?=(?:boxed|fbox|frac|dfrac|tfrac|sqrt|left|right|text|mathrm|pi|cdot|times|le|ge|leq|geq|neq|infty|cup|pm)(?![a-zA-Z]))/g;

/** Repairs doubled backslashes before commands and form feeds that were `\f` in a non-raw literal. */
export function repairEscapes(raw: string): string {
  return raw.replace(/\u000c/g, '\\f').replace(DOUBLED_COMMAND, '\\');
}

/**
 * The longest answer graded. Normalising and parsing an answer is not linear in its length (nested
 * brackets recurse), and a final answer is a few dozen characters; past this it is not graded.
 */
export const MAX_ANSWER_CHARS = 2000;

/**
 * The end of a long text: where a solution without answer conventions states its answer. Reading
 * prose for math is only bounded on a bounded text.
 */
export function tailOf(text: string): string {
  return text.length <= MAX_ANSWER_CHARS ? text : text.slice(text.length - MAX_ANSWER_CHARS);
}

/** The answer part of `raw`, or null when prose holds nothing that reads as an answer. */
export function answerText(raw: string): string | null {
  const text = repairEscapes(raw);
  const found = extractAnswer(text);
  if (found?.method === 'boxed') return found.text;
  const candidate = tailOf(found === null ? text.trim() : found.text);
  return isProse(candidate) ? answerFromProse(candidate) : candidate;
}

interface Segment {
  start: number;
  end: number;
  body: string;
}

const MATH_SEGMENT = /\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)|\$((?:\\\$|[^$\n])+?)\$/g;
const WORD = /(?<![\\a-zA-Z])[a-zA-Z]{3,}/g;

function mathSegments(text: string): Segment[] {
  return [...text.matchAll(MATH_SEGMENT)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    body: (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim(),
  }));
}

/** The text without its `{...}` groups: words inside braces are names or `\text`, not prose. */
function withoutGroups(text: string): string {
  let s = text;
  for (let previous = ''; previous !== s; ) {
    previous = s;
    s = s.replace(/\{[^{}]*\}/g, ' ');
  }
  return s;
}

/** Whether `text` is a sentence around an answer rather than the answer itself. */
export function isProse(text: string): boolean {
  const segments = mathSegments(text);
  let outside = text;
  for (const seg of [...segments].reverse()) outside = outside.slice(0, seg.start) + ' ' + outside.slice(seg.end);
  const words = withoutGroups(outside).match(WORD) ?? [];
  return segments.length > 0 ? words.length > 0 : words.length >= 2;
}

/**
 * The answer in a sentence: the last math segment (with the segments just before it that are
 * parts of the same answer), unless a number follows it in the prose ("The largest $n$ is 34.");
 * without math, the last number.
 */
export function answerFromProse(text: string): string | null {
  const segments = mathSegments(text);
  const last = segments[segments.length - 1];
  const tailNumber = lastNumber(last === undefined ? text : text.slice(last.end));
  if (last === undefined || tailNumber !== null) return tailNumber;
  const group = [last];
  for (let k = segments.length - 2; k >= 0; k--) {
    const prev = segments[k];
    const next = group[group.length - 1];
    if (prev === undefined || next === undefined || !isJoiningGap(text.slice(prev.end, next.start))) break;
    group.push(prev);
  }
  return group.reverse().map((s) => s.body).join(', ');
}

function lastNumber(text: string): string | null {
  const all = text.match(NUMBER_PATTERN);
  return all === null ? null : (all[all.length - 1] ?? null);
}

const CHOICE_AFTER_ANSWER = /answer\s*(?:is|:)\s*:?\s*\(?([A-Z])\)?(?![A-Za-z])/g;
const CHOICE_AT_START = /^\s*\(?([A-Z])[.):](?:\s|$)/;
const LONE_CAPITAL = /(?<![A-Za-z\\])\(?([A-Z])\)?(?![A-Za-z'])/g;

/**
 * A multiple-choice letter in prose: after "answer is", or leading the text ("B. Because ..."),
 * or the only capital standing alone ("Because B is valid"). Used when the gold is a letter.
 */
export function extractChoice(raw: string): string | null {
  const afterAnswer = [...raw.matchAll(CHOICE_AFTER_ANSWER)].pop();
  if (afterAnswer?.[1] !== undefined) return afterAnswer[1];
  const atStart = CHOICE_AT_START.exec(raw);
  if (atStart?.[1] !== undefined) return atStart[1];
  const lone = new Set([...raw.matchAll(LONE_CAPITAL)].map((m) => m[1] ?? '').filter((c) => c !== 'I'));
  return lone.size === 1 ? ([...lone][0] ?? null) : null;
}
