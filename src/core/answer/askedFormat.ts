/**
 * Grading as the prompt asks. When a prompt states the answer's format (`#### <answer>`, a final
 * `\boxed{}`, `<answer>…</answer>` tags, "The answer is …"), trainers' reward rules read the last
 * such marker and give a response without it no reward. Reading the answer the same way is what
 * makes the tool's outcomes agree with the trainer's own: a harness's habits (an earlier "the answer
 * is not 27", a last-number fallback) would grade what the trainer never saw as an answer.
 * Every rule here is linear in the text (native searches and anchored patterns on short slices).
 */
import { findBoxes, lastBoxGroup } from './boxed';

/** An answer format a prompt can ask for. */
export type AskedFormat = 'hashes' | 'boxed' | 'answer-tags' | 'the-answer-is';

/** How each asked format is named to the user: "no `####` answer". */
export const ASKED_MARKERS: Readonly<Record<AskedFormat, string>> = {
  hashes: '`####`',
  boxed: '`\\boxed{}`',
  'answer-tags': '`<answer>`',
  'the-answer-is': '"The answer is"',
};

/** Only the prompt's first and last stretches are read: instructions sit there, and it bounds the cost. */
const PROMPT_WINDOW = 4000;

/** `\\boxed` as a command (not `\\boxedfoo`). */
const ASKS_BOXED = /\\boxed(?![A-Za-z])/;
/** "End with 'The answer is: X'", "conclude with \"The final answer is …\"". */
const ASKS_ANSWER_IS = /(?:end|finish|conclude|format|write|state|respond|form)[^.\n]{0,80}["'“`]\s*the (?:final )?answer is/i;

/**
 * The answer format the prompt asks for, or null when it states none. A prompt that names several
 * is taken at its last mention (the instruction nearest the generation is the one in force).
 */
export function askedFormatOf(prompt: string): AskedFormat | null {
  const text = prompt.length <= 2 * PROMPT_WINDOW ? prompt : `${prompt.slice(0, PROMPT_WINDOW)}\n${prompt.slice(-PROMPT_WINDOW)}`;
  let best: AskedFormat | null = null;
  let bestAt = -1;
  const consider = (format: AskedFormat, at: number): void => {
    if (at > bestAt) [best, bestAt] = [format, at];
  };
  const hashes = text.lastIndexOf('####');
  // A markdown heading (`#### Problem`) is not an answer format: the mark must stand near "answer".
  if (hashes >= 0 && /answer/i.test(text.slice(Math.max(0, hashes - 120), hashes + 120))) consider('hashes', hashes);
  const box = text.lastIndexOf('\\boxed');
  if (box >= 0 && ASKS_BOXED.test(text.slice(box, box + 8))) consider('boxed', box);
  consider('answer-tags', text.toLowerCase().lastIndexOf('<answer>'));
  const answerIs = ASKS_ANSWER_IS.exec(text);
  if (answerIs !== null) consider('the-answer-is', answerIs.index);
  return best;
}

/** An answer read by the prompt's asked format; `[start, end)` in the response. */
export interface AskedAnswer {
  text: string;
  start: number;
  end: number;
}

/**
 * The answer at the last marker of the asked format in `response` (the assistant's own text), with
 * markdown around it removed; null when the response holds no such marker with an answer after it.
 */
export function readAskedAnswer(response: string, format: AskedFormat): AskedAnswer | null {
  switch (format) {
    case 'hashes':
      return afterLastMarker(response, '####');
    case 'boxed':
      return lastBoxed(response);
    case 'answer-tags':
      return lastTagged(response);
    case 'the-answer-is':
      return afterAnswerIs(response);
  }
}

/** The rest of the line after the last `####` (a run of five or more is a heading), undecorated. */
function afterLastMarker(response: string, marker: string): AskedAnswer | null {
  let at = response.lastIndexOf(marker);
  // `##### Explanation` is a markdown heading; step back over runs longer than the marker.
  while (at >= 0 && (response[at - 1] === '#' || response[at + marker.length] === '#')) at = at === 0 ? -1 : response.lastIndexOf(marker, at - 1);
  if (at < 0) return null;
  const start = at + marker.length;
  const lineEnd = response.indexOf('\n', start);
  return undecorated(response, start, lineEnd < 0 ? response.length : lineEnd);
}

function lastBoxed(response: string): AskedAnswer | null {
  const group = lastBoxGroup(response, findBoxes(response));
  const first = group[0];
  const last = group[group.length - 1];
  if (first === undefined || last === undefined) return null;
  if (group.length === 1) return undecorated(response, first.contentStart, first.contentEnd);
  const parts = [...new Set(group.map((b) => response.slice(b.contentStart, b.contentEnd).trim()).filter((p) => p !== ''))];
  return parts.length === 0 ? null : { text: parts.join(', '), start: first.contentStart, end: last.contentEnd };
}

function lastTagged(response: string): AskedAnswer | null {
  const lower = response.toLowerCase();
  const open = lower.lastIndexOf('<answer>');
  if (open < 0) return null;
  const start = open + '<answer>'.length;
  const close = lower.indexOf('</answer>', start);
  return undecorated(response, start, close < 0 ? response.length : close);
}

const ANSWER_IS = /the (?:final )?answer is\s*:?/gi;

/** After the last "the answer is", to the line's end or the sentence's. */
function afterAnswerIs(response: string): AskedAnswer | null {
  let last: RegExpExecArray | null = null;
  ANSWER_IS.lastIndex = 0;
  for (let m = ANSWER_IS.exec(response); m !== null; m = ANSWER_IS.exec(response)) last = m;
  if (last === null) return null;
  const start = last.index + last[0].length;
  const lineEnd = response.indexOf('\n', start);
  let end = lineEnd < 0 ? response.length : lineEnd;
  const sentence = /\.\s+(?=[A-Z])/.exec(response.slice(start, end));
  if (sentence !== null) end = start + sentence.index;
  return undecorated(response, start, end);
}

/** The longest answer text kept: a final answer is a few dozen characters. */
const MAX_ANSWER = 400;
/** Markdown and TeX wrappers around an answer: backticks, bold, `$`, `\(`…`\)`. */
const WRAPPERS = /^(?:[`*_$]|\\\(|\\\[)+|(?:[`*_$]|\\\)|\\\])+$/g;
/** A number leading the answer ("21 rhinestones", "200`.", "$17.00"). */
const LEADING_NUMBER = /^-?\$?\s?\d[\d,]*(?:\.\d+)?(?:\/\d+)?%?/;
/** What may follow a leading number that is the whole answer: words, closing marks, nothing math. */
const PROSE_AFTER_NUMBER = /^[^\d+\-*/^=\\{}()[\]<>]*$/;

function undecorated(response: string, from: number, to: number): AskedAnswer | null {
  let start = from;
  let end = Math.min(to, from + MAX_ANSWER);
  while (start < end && /[\s:=]/.test(response[start] ?? '')) start++;
  while (end > start && /[\s.。]/.test(response[end - 1] ?? '')) end--;
  let text = response.slice(start, end);
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(WRAPPERS, '').trim().replace(/[.。]$/, '').trim();
  }
  const numeric = LEADING_NUMBER.exec(text);
  if (numeric !== null && PROSE_AFTER_NUMBER.test(text.slice(numeric[0].length))) text = numeric[0].replace(/\s+/g, '');
  return text === '' ? null : { text, start, end };
}

/** Asked formats of prompts seen lately (a group's rollouts share one prompt). */
const askedCache = new Map<string, AskedFormat | null>();
const ASKED_CACHE_SIZE = 1024;

/**
 * The answer format a rollout's prompt asks for: its system prompt and its question are read (an
 * instruction sits in either). Cached by the text read, so a group's rollouts read it once.
 */
export function askedFormatOfPrompt(question: string, system: string | null | undefined): AskedFormat | null {
  const text = system ? `${system}\n${question}` : question;
  const cached = askedCache.get(text);
  if (cached !== undefined) return cached;
  const found = askedFormatOf(text);
  if (askedCache.size >= ASKED_CACHE_SIZE) askedCache.clear();
  if (text.length <= 64 * 1024) askedCache.set(text, found);
  return found;
}
