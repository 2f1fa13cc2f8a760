/**
 * The turns of a multi-turn response: the assistant's own text, the tool calls it writes, and the
 * tool replies and user turns that a trainer's agent loop appends to the same string (verl's tool
 * rollouts: `…</tool_call>\nuser\n<tool_response>\n…\n</tool_response>\nassistant\n…`). Only the
 * assistant's text is split into steps, scored and read for the final answer.
 */
import { readTagged, taggedTemplateOf } from './tagged';
import { roleLines } from './stripped';
import { trimSpan } from './textSpan';
import { Finder, MAX_ROLE_WORD, type TemplateId, type Turn } from './turns';

/** A response read as turns; null from `readResponse` when it is one plain assistant turn. */
export interface ResponseReading {
  template: TemplateId | null;
  hasSpecialTokens: boolean;
  turns: Turn[];
}

const TOOL_RESPONSE = '<tool_response>';
const TOOL_CALL_OPEN = '<tool_call>';
const TOOL_CALL_CLOSE = '</tool_call>';

/**
 * Tags that start or end a turn, or a tool call: `<|`, `<｜`, `<start_of_turn>`, `<end_of_turn>`,
 * `<tool_call>` (looked for from each `<`, one pass) and `[/INST]`. One pass from `<` to `<`
 * rather than a literal search per tag: GSM8K's calculator notes (`<<2*3=6>>`) put a `<` in most
 * responses, which sent every one through all six searches.
 */
export function hasTurnTag(text: string): boolean {
  for (let i = text.indexOf('<'); i !== -1; i = text.indexOf('<', i + 1)) {
    const c = text.charCodeAt(i + 1);
    if (c === 0x7c || c === 0xff5c) return true;
    if (c === 0x73 ? text.startsWith('start_of_turn>', i + 1) : c === 0x65 ? text.startsWith('end_of_turn>', i + 1) : c === 0x74 && text.startsWith('tool_call>', i + 1)) return true;
  }
  return text.indexOf('[') !== -1 && text.includes('[/INST]');
}

/** Role words that start a reply when they stand alone on a line. */
const REPLY_WORDS = new Set(['user', 'human', 'tool', 'ipython', 'function', 'observation']);

/**
 * Anything that can start a turn other than the assistant's: a template's tag, a tool call, a line
 * saying only a replier's role word. Most responses hold none and are read no further. Linear: a
 * literal search or two, then one hop from line break to line break (measured faster than one
 * regular expression or a literal search per role word).
 */
function mayHoldTurns(text: string): boolean {
  if (hasTurnTag(text)) return true;
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if (end === -1) return false;
    if (end > start && end - start <= MAX_ROLE_WORD + 1 && REPLY_WORDS.has(text.slice(start, text.charCodeAt(end - 1) === 13 ? end - 1 : end))) return true;
    start = end + 1;
  }
}

/** The turns of `text`, or null when all of it is the assistant's (no tokens, no replies, no tool calls). */
export function readResponse(text: string): ResponseReading | null {
  if (!mayHoldTurns(text)) return null;
  const template = taggedTemplateOf(text, true);
  if (template !== null && template !== 'mistral') {
    const read = readTagged(text, template, 'assistant');
    if ('turns' in read) return finish(text, { template, hasSpecialTokens: true, turns: read.turns.map((t) => asToolReply(text, t)) });
  }
  const turns = strippedTurns(text);
  return finish(text, { template: turns.length > 1 ? 'chatml' : null, hasSpecialTokens: false, turns });
}

/** A user turn that holds a tool's reply (Qwen and Hermes templates send tool results as user turns). */
function asToolReply(text: string, turn: Turn): Turn {
  if (turn.role !== 'user') return turn;
  const start = trimSpan(text, turn.start, turn.end).start;
  return text.startsWith(TOOL_RESPONSE, start) ? { ...turn, role: 'tool' } : turn;
}

/**
 * Turns of a response decoded without special tokens: a role line `user` (or `tool`) starts a reply
 * when a tool response follows it, or when an `assistant` line comes later to end it; a line saying
 * "user" anywhere else is the assistant's text.
 */
function strippedTurns(text: string): Turn[] {
  const lines = roleLines(text);
  let lastAssistant = -1;
  lines.forEach((l, i) => {
    if (l.role === 'assistant') lastAssistant = i;
  });
  const turns: Turn[] = [];
  let current: Turn = { role: 'assistant', start: 0, end: text.length };
  lines.forEach((line, i) => {
    if (current.role === 'assistant' && (line.role === 'user' || line.role === 'tool')) {
      const isToolReply = text.startsWith(TOOL_RESPONSE, line.contentStart);
      if (!isToolReply && i > lastAssistant) return;
      turns.push({ ...current, end: Math.max(current.start, line.lineStart - 1) });
      current = { role: isToolReply ? 'tool' : line.role, start: line.contentStart, end: text.length };
    } else if (current.role !== 'assistant' && line.role === 'assistant') {
      turns.push({ ...current, end: Math.max(current.start, line.lineStart - 1) });
      current = { role: 'assistant', start: line.contentStart, end: text.length };
    }
  });
  turns.push(current);
  return turns;
}

/** Tool calls split out of the assistant's turns; null when nothing but one assistant turn is left. */
function finish(text: string, reading: ResponseReading): ResponseReading | null {
  const turns = withToolCalls(text, reading.turns).filter((t) => t.end > t.start || t.role !== 'assistant');
  const only = turns[0];
  if (turns.length === 0) return null;
  if (turns.length === 1 && only && only.role === 'assistant' && trimSpan(text, only.start, only.end).end === trimSpan(text, 0, text.length).end) return null;
  return { ...reading, turns };
}

/**
 * Each assistant turn cut around its `<tool_call>…</tool_call>` blocks. A block left open holds
 * its first line of text (the call's JSON) and no more: what the model wrote after a malformed
 * call is its own text (its `#### 7`, which a trainer's reward rule reads).
 */
function withToolCalls(text: string, turns: readonly Turn[]): Turn[] {
  const open = new Finder(text, TOOL_CALL_OPEN);
  const close = new Finder(text, TOOL_CALL_CLOSE);
  const out: Turn[] = [];
  for (const turn of turns) {
    if (turn.role !== 'assistant') {
      out.push(turn);
      continue;
    }
    let from = turn.start;
    for (;;) {
      const at = open.next(from);
      if (at === -1 || at >= turn.end) break;
      const shut = close.next(at);
      const end = shut === -1 || shut >= turn.end ? openCallEnd(text, at + TOOL_CALL_OPEN.length, turn.end) : shut + TOOL_CALL_CLOSE.length;
      out.push({ role: 'assistant', start: from, end: at }, { role: 'tool-call', start: at, end });
      from = end;
    }
    out.push({ role: 'assistant', start: from, end: turn.end });
  }
  return out.filter((t) => t.end > t.start);
}

/**
 * The response with everything but the assistant's own text blanked (spaces; line breaks kept), so
 * answer rules find the last marker of the last assistant turn at its own offset, never in a tool's
 * reply or a tool call. Linear in the response.
 */
export function assistantText(text: string, turns: readonly Turn[] | null | undefined): string {
  if (!turns || turns.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const turn of turns) {
    if (turn.role !== 'assistant') continue;
    parts.push(blank(text.slice(at, turn.start)), text.slice(turn.start, turn.end));
    at = turn.end;
  }
  parts.push(blank(text.slice(at)));
  return parts.join('');
}

function blank(span: string): string {
  return span.replace(/[^\n]/g, ' ');
}

/** Where a `<tool_call>` never closed ends: after the first line with text in it, or at `limit`. */
function openCallEnd(text: string, from: number, limit: number): number {
  let at = from;
  for (;;) {
    const lineEnd = text.indexOf('\n', at);
    const end = lineEnd === -1 || lineEnd >= limit ? limit : lineEnd;
    if (text.slice(at, end).trim() !== '' || end === limit) return end;
    at = end + 1;
  }
}
