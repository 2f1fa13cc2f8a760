/**
 * Bounds shared by the text detectors: each looks at most at the first `SCAN_CHARS` of a response,
 * so a runaway response of megabytes costs the same as one of 200 KB, and every scan below is a
 * single pass (indexOf loops and regexes without nested quantifiers).
 */

/** The most of one response a text detector reads. */
export const SCAN_CHARS = 200_000;

/** The part of `text` a detector reads. */
export function scanned(text: string): string {
  return text.length > SCAN_CHARS ? text.slice(0, SCAN_CHARS) : text;
}

/** `[start, end)` of each `open … close` block (content only), left to right; an unclosed block runs to the end. */
export function blocks(text: string, open: string, close: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let at = 0;
  for (;;) {
    const o = text.indexOf(open, at);
    if (o < 0) return out;
    const start = o + open.length;
    const c = text.indexOf(close, start);
    const end = c < 0 ? text.length : c;
    out.push({ start, end });
    at = c < 0 ? text.length : c + close.length;
  }
}

/** Final-answer markers: `#### x` lines and `\boxed{x}`, each with where it starts and its value. */
export interface AnswerMarker {
  start: number;
  end: number;
  value: string;
}

/** Exactly four `#`: five or more are a heading or a rule. */
const HASHES = /(?<!#)####(?!#)[ \t]*([^\n]*)/g;
/** A markdown heading (`#### Step 1:`) is no answer: a value ending in `:` or longer than 60 characters. */
const isAnswerValue = (value: string): boolean => value.trim() !== '' && value.length <= 60 && !/:\s*$/.test(value);

/** Every `####` answer line and every `\boxed{…}` of `text`, in order of position. */
export function answerMarkers(text: string, boxes: readonly { boxStart: number; boxEnd: number; contentStart: number; contentEnd: number }[]): AnswerMarker[] {
  const out: AnswerMarker[] = [];
  for (const m of text.matchAll(HASHES)) if (isAnswerValue(m[1] ?? '')) out.push({ start: m.index, end: m.index + m[0].length, value: m[1] ?? '' });
  for (const b of boxes) out.push({ start: b.boxStart, end: b.boxEnd, value: text.slice(b.contentStart, b.contentEnd) });
  // A marker inside a tool call's arguments or a tool's reply is not the response's answer.
  const tools = [...blocks(text, '<tool_call>', '</tool_call>'), ...blocks(text, '<tool_response>', '</tool_response>')];
  return out.filter((m) => !tools.some((t) => t.start <= m.start && m.start < t.end)).sort((a, b) => a.start - b.start);
}

/** An answer as compared across markers: spaces, thousands commas, `$` and a trailing period dropped. */
export function answerKey(value: string): string {
  return value.replace(/[\s$,`*]/g, '').replace(/\.$/, '').toLowerCase();
}
