/**
 * A rollout's final answer the way evaluation harnesses take it (Qwen2.5-Math and ToRA
 * evaluation code, GSM8K harnesses): the `pred` the harness stored beside the response when the
 * file has one; else the written conventions (`\boxed{}`, `# Answer`, "the answer is", `A:`); else
 * the output of the last program block (tool-integrated solutions print their answer); else the
 * last number of the response. Every step is linear in the response's length.
 */
import type { AnswerSource } from '../model';
import { extractAnswer, extractLastNumber } from './extract';
import { readAskedAnswer, type AskedFormat } from './askedFormat';

/** An answer and where it came from. */
export interface FinalAnswer {
  text: string;
  from: AnswerSource;
}

const OUTPUT_FENCE = '```output';

/** The text of the last ```output block (up to the next fence or the end), trimmed; null when there is none. */
export function lastProgramOutput(response: string): string | null {
  const at = response.lastIndexOf(OUTPUT_FENCE);
  if (at < 0) return null;
  const start = at + OUTPUT_FENCE.length;
  const close = response.indexOf('```', start);
  const text = response.slice(start, close < 0 ? response.length : close).trim();
  return text === '' ? null : text;
}

const ASKED_SOURCES: Readonly<Record<AskedFormat, AnswerSource>> = {
  hashes: 'a-colon',
  boxed: 'boxed',
  'answer-tags': 'answer-tags',
  'the-answer-is': 'the-answer-is',
};

/**
 * The final answer of a response; `pred` is the harness's own extraction, when the file has one.
 * With `asked` (the format the prompt asks for), only that format's last marker is read: no
 * other convention and no last-number fallback, as a trainer's rule reads it.
 */
export function finalAnswer(response: string, pred: string | null = null, asked: AskedFormat | null = null): FinalAnswer | null {
  if (pred !== null && pred.trim() !== '') return { text: pred.trim(), from: 'pred' };
  if (asked !== null) {
    const read = readAskedAnswer(response, asked);
    return read === null ? null : { text: read.text, from: ASKED_SOURCES[asked] };
  }
  const written = extractAnswer(response);
  if (written) return { text: written.text, from: written.method };
  const output = lastProgramOutput(response);
  if (output !== null) return { text: output, from: 'program-output' };
  const last = extractLastNumber(response);
  return last ? { text: last.text, from: 'last-number' } : null;
}
