/**
 * Reading a critic's answer: reasoning dropped (`<think>…</think>`; a separate `reasoning_content`
 * field is never read), the last `\boxed{}` taken as the index of the earliest wrong paragraph (−1:
 * none), its "Error:" sentence kept as the flagged step's note. Every scan is linear in the
 * answer's length, and the answer itself is size-capped by the transport.
 */
import type { StepScoring } from '../../../core/model';

/** What a critic said about one solution. */
export type CriticVerdict =
  | { kind: 'flagged'; index: number; explanation: string | null }
  | { kind: 'clean' }
  | { kind: 'unparsable'; reason: string };

/** The note on every step after the flagged one. */
export const AFTER_FIRST_ERROR_NOTE = 'not judged: after the first error';
const MAX_NOTE_CHARS = 300;

/** The answer without its reasoning: text after the last `</think>`, and nothing from an unclosed `<think>`. */
export function answerText(content: string): string {
  const close = content.lastIndexOf('</think>');
  let answer = close >= 0 ? content.slice(close + '</think>'.length) : content;
  const open = answer.indexOf('<think>');
  if (open >= 0) answer = answer.slice(0, open);
  return answer;
}

/** The last `\boxed{…}` of a text: its content and where it starts, or why there is none. */
export function lastBoxed(text: string): { inner: string; start: number } | { problem: string } {
  const start = text.lastIndexOf('\\boxed');
  if (start < 0) return { problem: 'the answer has no \\boxed{} index' };
  let i = start + '\\boxed'.length;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (text[i] !== '{') return { problem: 'the last \\boxed has no {…} after it' };
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return { inner: text.slice(i + 1, j), start };
  }
  return { problem: 'the last \\boxed{ is never closed (was the answer cut off?)' };
}

/** The integer inside a box: `2`, `-1`, `−1`, `\text{2}`, `paragraph_2`, `$3$`; null for anything else. */
export function parseIndex(inner: string): number | null {
  const plain = inner
    .replace(/\\(?:text|textbf|mathbf|mathrm)\s*\{([^{}]*)\}/g, '$1')
    .replace(/\\[,!;: ]|[$~\s]/g, '')
    .replace(/[\u2212\u2013]/g, '-');
  const match = /^(?:paragraph_?|step)?(-?\d{1,6})\.?$/i.exec(plain);
  return match ? Number(match[1]) : null;
}

/** Reads an answer against a solution of `stepCount` paragraphs. */
export function readVerdict(content: string, stepCount: number): CriticVerdict {
  const answer = answerText(content);
  const boxed = lastBoxed(answer);
  if ('problem' in boxed) return { kind: 'unparsable', reason: boxed.problem };
  const index = parseIndex(boxed.inner);
  if (index === null) return { kind: 'unparsable', reason: `the last \\boxed{} holds "${cleanNote(boxed.inner, 40)}", not a paragraph index` };
  if (index === -1) return { kind: 'clean' };
  if (index < 0 || index >= stepCount) {
    return { kind: 'unparsable', reason: `the critic answered \\boxed{${index}}, but the paragraphs are numbered 0–${stepCount - 1}` };
  }
  return { kind: 'flagged', index, explanation: explanationOf(answer.slice(0, boxed.start)) };
}

/**
 * The critic's sentence about the flagged paragraph: what follows the last "Error:" before the
 * box, else the last paragraph of text before it.
 */
export function explanationOf(beforeBox: string): string | null {
  const lower = beforeBox.toLowerCase();
  const at = lower.lastIndexOf('error:');
  const found = at >= 0 ? firstLine(beforeBox.slice(at + 'error:'.length)) : lastParagraph(beforeBox);
  const note = cleanNote(found.replace(/\*\*/g, ''), MAX_NOTE_CHARS);
  return note === '' ? null : note;
}

/** The sentence asked for is one line; what follows it ("So the answer is") is not part of it. */
function firstLine(text: string): string {
  const start = text.search(/\S/);
  if (start < 0) return '';
  const end = text.indexOf('\n', start);
  return end < 0 ? text : text.slice(0, end);
}

function lastParagraph(text: string): string {
  const trimmed = text.trimEnd();
  const cut = trimmed.lastIndexOf('\n\n');
  return cut >= 0 ? trimmed.slice(cut + 2) : trimmed;
}

/**
 * One line of plain text: control and bidirectional-override characters removed, whitespace
 * collapsed, cut at a word near `maxChars`. Markdown and HTML are escaped where it is shown.
 */
export function cleanNote(text: string, maxChars: number = MAX_NOTE_CHARS): string {
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim();
  if (line.length <= maxChars) return line;
  const cut = line.lastIndexOf(' ', maxChars);
  return `${line.slice(0, cut > maxChars / 2 ? cut : maxChars)}…`;
}

/** Step scores from a verdict: 1 before the flagged step, 0 on it, not judged after it; −1 → all 1. */
export function verdictScoring(verdict: Exclude<CriticVerdict, { kind: 'unparsable' }>, stepCount: number, scorer: string): StepScoring {
  if (verdict.kind === 'clean') return { kind: 'scored', scores: Array.from({ length: stepCount }, () => 1), scorer };
  const flagged = verdict.explanation ? `flagged by the critic: ${verdict.explanation}` : 'flagged by the critic (no reason given)';
  const scores: (number | null)[] = [];
  const notes: (string | null)[] = [];
  for (let k = 0; k < stepCount; k++) {
    scores.push(k < verdict.index ? 1 : k === verdict.index ? 0 : null);
    notes.push(k < verdict.index ? null : k === verdict.index ? flagged : AFTER_FIRST_ERROR_NOTE);
  }
  return { kind: 'scored', scores, notes, scorer };
}
