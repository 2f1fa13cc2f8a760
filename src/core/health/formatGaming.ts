/**
 * Format gaming in one response: an answer marker with (almost) no reasoning of its own before it,
 * several different final answers (`####` lines, `\boxed{}`), an empty `<think></think>`. Tool
 * calls and tool replies are not the response's own reasoning, so their blocks are left out of the
 * count of words.
 */
import { findBoxes } from '../answer/boxed';
import { spanOf, type Finding } from './healthTypes';
import { answerKey, answerMarkers, blocks, scanned, type AnswerMarker } from './textScan';

/** Fewer words than this of the response's own before its first answer: an answer without reasoning. */
const MIN_REASONING_WORDS = 8;

const EMPTY_THINK = /<think>\s*<\/think>/;

/** Words of `text[0, end)` outside tool-call and tool-reply blocks and role lines. */
function ownWords(text: string, end: number): number {
  const head = text.slice(0, end);
  const cut = [...blocks(head, '<tool_call>', '</tool_call>'), ...blocks(head, '<tool_response>', '</tool_response>')].sort((a, b) => a.start - b.start);
  let words = 0;
  let at = 0;
  const count = (s: string): number => (s.replace(/<\/?(tool_call|tool_response|think)>|^(user|assistant|tool)$/gm, ' ').match(/[A-Za-z\p{L}\d]+/gu) ?? []).length;
  for (const c of cut) {
    if (c.start > at) words += count(head.slice(at, c.start));
    at = Math.max(at, c.end);
  }
  return words + count(head.slice(at));
}

function severalAnswers(text: string, markers: readonly AnswerMarker[]): Finding | null {
  const keys = new Set<string>();
  for (const m of markers) if (answerKey(m.value) !== '') keys.add(answerKey(m.value));
  if (keys.size < 2) return null;
  const first = markers[0]!;
  const last = markers[markers.length - 1]!;
  const values = [...keys].slice(0, 4).join(', ');
  return { strength: keys.size, span: spanOf(text, first.start, last.end), note: `${keys.size} different final answers (${values}${keys.size > 4 ? ', …' : ''})` };
}

/** The strongest sign of format gaming in `response`, or null. */
export function formatGamingIn(response: string): Finding | null {
  const text = scanned(response);
  const think = EMPTY_THINK.exec(text);
  const markers = answerMarkers(text, findBoxes(text));
  const several = severalAnswers(text, markers);
  if (several) return several;
  const first = markers[0];
  if (first && answerKey(first.value) !== '') {
    const words = ownWords(text, first.start);
    if (words < MIN_REASONING_WORDS) {
      return { strength: 1, span: spanOf(text, first.start, first.end), note: `an answer with ${words} word${words === 1 ? '' : 's'} of its own reasoning before it` };
    }
  }
  if (think) return { strength: 1, span: spanOf(text, think.index, think.index + think[0].length), note: 'an empty <think></think>' };
  return null;
}
