/**
 * Writing a grouped line with only some of its responses, byte for byte otherwise: every
 * top-level array parallel to the responses (scores, step scores, predictions…) keeps the same
 * elements, and keyed solutions not kept are left out. Nothing is re-serialised, so numbers,
 * escapes and key order stay exactly as the user wrote them.
 */
import { arrayElements, objectMembers } from './rawJson';

/**
 * Keep responses `kept` (indices) of a grouped line. `responsesKey` names the responses array, or,
 * for keyed solutions, `keyedMembers` lists the member keys in response order.
 */
export function keepResponses(raw: string, kept: ReadonlySet<number>, layout: { responsesKey?: string; keyedMembers?: readonly string[] }): string {
  const members = objectMembers(raw);
  if (layout.keyedMembers) return dropMembers(raw, members, new Set(layout.keyedMembers.filter((_, i) => !kept.has(i))));
  const responses = members.find((m) => m.key === layout.responsesKey);
  if (!responses) return raw;
  const n = arrayElements(raw, responses.valueStart).length;
  let out = '';
  let last = 0;
  for (const m of members) {
    const elements = raw.charCodeAt(m.valueStart) === 91 ? arrayElements(raw, m.valueStart) : null;
    if (!elements || elements.length !== n) continue;
    out += raw.slice(last, m.valueStart) + rebuildArray(raw, elements, kept);
    last = m.valueEnd;
  }
  return out + raw.slice(last);
}

function rebuildArray(raw: string, elements: { start: number; end: number }[], kept: ReadonlySet<number>): string {
  const first = elements[0];
  const second = elements[1];
  const separator = first && second ? raw.slice(first.end, second.start) : ', ';
  return '[' + elements.filter((_, i) => kept.has(i)).map((e) => raw.slice(e.start, e.end)).join(separator) + ']';
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
