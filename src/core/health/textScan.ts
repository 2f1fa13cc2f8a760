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

/** Tags that open a tool block: a block left unclosed ends where the next one opens. */
const OPENINGS = ['<tool_call>', '<tool_response>'];

/**
 * `indexOf` for positions that only move forward: each tag's last answer is kept while it is still
 * ahead, so a text of many opened and never closed blocks is still read once per tag, not once per block.
 */
function forwardFinder(text: string): (tag: string, from: number) => number {
  const found = new Map<string, number>();
  return (tag, from) => {
    const known = found.get(tag);
    if (known !== undefined && (known >= from || known === -1)) return known;
    const at = text.indexOf(tag, from);
    found.set(tag, at);
    return at;
  };
}

/**
 * `[start, end)` of each `open … close` block (content only), left to right. A block never closed
 * (a model that stopped writing its call) ends where the next tool block opens, or at the end.
 */
export function blocks(text: string, open: string, close: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const find = forwardFinder(text);
  let at = 0;
  for (;;) {
    const o = find(open, at);
    if (o < 0) return out;
    const start = o + open.length;
    const c = find(close, start);
    let end = c < 0 ? text.length : c;
    for (const tag of OPENINGS) {
      const next = find(tag, start);
      if (next >= 0 && next < end) end = next;
    }
    out.push({ start, end });
    at = end === c ? c + close.length : end;
  }
}

/** Final-answer markers: `#### x` lines and `\boxed{x}`, each with where it starts and its value. */
export interface AnswerMarker {
  start: number;
  end: number;
  value: string;
}

const MAX_VALUE = 200;

/** Exactly four `#`: five or more are a heading or a rule. */
const HASHES = /(?<!#)####(?!#)[ \t]*([^\n]*)/g;
/** A markdown heading (`#### Step 1:` at the start of a line, or a long title) is no answer. */
function isAnswer(text: string, at: number, value: string): boolean {
  if (value.trim() === '' || value.length > 60) return false;
  const isLineStart = at === 0 || text[at - 1] === '\n';
  return !(isLineStart && /:\s*$/.test(value));
}

/** Every `####` answer line and every `\boxed{…}` of `text`, in order of position. */
export function answerMarkers(text: string, boxes: readonly { boxStart: number; boxEnd: number; contentStart: number; contentEnd: number }[]): AnswerMarker[] {
  const out: AnswerMarker[] = [];
  for (const m of text.matchAll(HASHES)) if (isAnswer(text, m.index, m[1] ?? '')) out.push({ start: m.index, end: m.index + m[0].length, value: m[1] ?? '' });
  // An unbalanced box runs to the end of the text: its value is capped, as every value compared is short.
  for (const b of boxes) out.push({ start: b.boxStart, end: b.boxEnd, value: text.slice(b.contentStart, Math.min(b.contentEnd, b.contentStart + MAX_VALUE)) });
  out.sort((a, b) => a.start - b.start);
  // A marker inside a tool call's arguments or a tool's reply is not the response's answer (one sweep: both lists in order).
  const tools = [...blocks(text, '<tool_call>', '</tool_call>'), ...blocks(text, '<tool_response>', '</tool_response>')].sort((a, b) => a.start - b.start);
  let t = 0;
  return out.filter((m) => {
    while (t < tools.length && tools[t]!.end <= m.start) t++;
    const tool = tools[t];
    return !(tool && tool.start <= m.start && m.start < tool.end);
  });
}

/**
 * A number that leads the value and is not the start of an expression: the answer of `#### 6 hours`
 * or `#### 6` is the final answer` is 6, as a trainer's `#### number` rule reads it, while
 * `#### 12 + 5 = 17` stays the whole expression.
 */
const LEADING_NUMBER = /^-?\d+(?:\.\d+)?(?![\d.]*[+\-*/^=×÷])/;

/**
 * An answer as compared across markers: spaces, thousands commas, `$`, backticks, bold and a trailing
 * period dropped; a leading number stands for the value (`6 hours`, `6` is the answer` → `6`).
 */
export function answerKey(value: string): string {
  const key = value.replace(/[\s$,`*]/g, '').replace(/\.$/, '').toLowerCase();
  return LEADING_NUMBER.exec(key)?.[0] ?? key;
}
