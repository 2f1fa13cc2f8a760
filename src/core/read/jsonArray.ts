/**
 * Reading a JSON document that is one top-level array (ProcessBench and evaluation dumps) element
 * by element, so that each element keeps its own line number and raw text, and a broken element
 * costs only itself.
 */
import type { Diagnostic, SourceRecord } from '../model';
import { parseLenient } from './lenientJson';
import { stringEnd } from './rawJson';
import { countLineBreaks } from './lineBreaks';
import { recordLocation } from '../presentation/locationWords';

interface Span {
  start: number;
  end: number;
}

/** Returns null when the text is not a top-level array. */
export function scanJsonArray(text: string): { records: SourceRecord[]; diagnostics: Diagnostic[] } | null {
  const open = firstNonSpace(text, 0);
  if (open === -1 || text[open] !== '[') return null;
  const spans = elementSpans(text, open + 1);
  // JSONL whose first line happens to be an array is not a JSON document.
  if (spans.closed && firstNonSpace(text, spans.closeAt + 1) !== -1) return null;
  const records: SourceRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  const lineOf = lineCounter(text);
  spans.elements.forEach((span, item) => {
    const raw = text.slice(span.start, span.end);
    const line = lineOf(span.start);
    const where = recordLocation({ line, item });
    const parsed = parseLenient(raw);
    if (!parsed.ok) {
      diagnostics.push({ line, severity: 'error', code: 'bad-json', message: `${where}: array element is not valid JSON: ${parsed.message}` });
    } else if (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
      diagnostics.push({ line, severity: 'error', code: 'not-object', message: `${where}: expected each array element to be a JSON object` });
    } else {
      records.push({ line, raw, value: parsed.value, item });
    }
  });
  if (!spans.closed) {
    const line = lineOf(text.length);
    diagnostics.push({ line, severity: 'error', code: 'truncated', message: `line ${line}: the JSON array is not closed (the file may have been cut off)` });
  }
  return { records, diagnostics };
}

/** Split the array body at top-level commas, respecting strings and nesting. */
function elementSpans(text: string, from: number): { elements: Span[]; closed: boolean; closeAt: number } {
  const elements: Span[] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i = stringEnd(text, i);
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
    } else if (c === 125 /* } */ || (c === 93 /* ] */ && depth > 0)) {
      depth--;
    } else if (c === 93 && depth === 0) {
      pushSpan(text, start, i, elements);
      return { elements, closed: true, closeAt: i };
    } else if (c === 44 /* , */ && depth === 0) {
      pushSpan(text, start, i, elements);
      start = i + 1;
    }
  }
  pushSpan(text, start, text.length, elements);
  return { elements, closed: false, closeAt: text.length };
}

function pushSpan(text: string, start: number, end: number, out: Span[]): void {
  const s = firstNonSpace(text, start);
  if (s === -1 || s >= end) return;
  let e = end;
  while (e > s && /\s/.test(text[e - 1] ?? '')) e--;
  out.push({ start: s, end: e });
}


function firstNonSpace(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
  }
  return -1;
}

/** Line numbers (VS Code's: `\r\n`, `\n`, lone `\r`) for increasing offsets, in one pass overall. */
function lineCounter(text: string): (offset: number) => number {
  let pos = 0;
  let line = 1;
  return (offset) => {
    const to = Math.min(offset, text.length);
    if (to > pos) {
      line += countLineBreaks(text, pos, to);
      pos = to;
    }
    return line;
  };
}
