/**
 * Writing a grouped line with only some of its responses, byte for byte otherwise: the arrays the
 * analysis read one entry per response (the responses, and the scores, step scores and
 * predictions beside them) keep the same elements, every other byte stays (another array of the
 * same length, an MCQ's `choices`, is not one of them), and keyed solutions not kept are left out.
 * Each array is found where `JSON.parse` found it: under the last of duplicate keys. Nothing is
 * re-serialised, so numbers, escapes and key order stay exactly as the user wrote them.
 */
import { arrayElements, locateValue, objectMembers, type JsonPath } from './rawJson';

/** How a line's responses are laid out: arrays indexed by response, or one member per response. */
export type ResponseLayout = { arrays: readonly JsonPath[] } | { keyedMembers: readonly string[] };

/** Keep responses `kept` (indices) of a grouped line. */
export function keepResponses(raw: string, kept: ReadonlySet<number>, layout: ResponseLayout): string {
  if ('keyedMembers' in layout) return dropMembers(raw, objectMembers(raw), new Set(layout.keyedMembers.filter((_, i) => !kept.has(i))));
  const edits: { start: number; end: number; text: string }[] = [];
  for (const path of layout.arrays) {
    const at = locateValue(raw, path);
    if (!at || raw.charCodeAt(at.start) !== 91 || edits.some((e) => e.start === at.start)) continue;
    edits.push({ start: at.start, end: at.end, text: rebuildArray(raw, arrayElements(raw, at.start), kept) });
  }
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let last = 0;
  for (const edit of edits) {
    // Nested arrays cannot both be per response; the outer one wins.
    if (edit.start < last) continue;
    out += raw.slice(last, edit.start) + edit.text;
    last = edit.end;
  }
  return out + raw.slice(last);
}

function rebuildArray(raw: string, elements: { start: number; end: number }[], kept: ReadonlySet<number>): string {
  const first = elements[0];
  const second = elements[1];
  const separator = first && second ? raw.slice(first.end, second.start) : ', ';
  const parts: string[] = [];
  for (let i = 0; i < elements.length; i++) if (kept.has(i)) parts.push(raw.slice(elements[i]!.start, elements[i]!.end));
  return '[' + parts.join(separator) + ']';
}

function dropMembers(raw: string, members: ReturnType<typeof objectMembers>, drop: ReadonlySet<string>): string {
  const keep = members.filter((m) => m.key === null || !drop.has(m.key));
  if (keep.length === members.length) return raw;
  const first = members[0];
  const second = members[1];
  const separator = first && second ? raw.slice(first.valueEnd, second.keyStart) : ', ';
  const open = raw.slice(0, first ? first.keyStart : 1);
  const last = members[members.length - 1];
  const close = last ? raw.slice(last.valueEnd) : '}';
  return open + keep.map((m) => raw.slice(m.keyStart, m.valueEnd)).join(separator) + close;
}
