/**
 * Garbled text in one response, as precision-corrupted or broken decoding leaves it: replacement
 * characters (U+FFFD, bytes that were not UTF-8), control bytes (other than tab, newline and
 * carriage return), and runs of one token (a character 64 times or a word 20 times in a row,
 * separators such as `-` or `=` excepted). Each is one linear regex pass.
 */
import { spanOf, type Finding } from './healthTypes';
import { scanned } from './textScan';

const REPLACEMENT = /\uFFFD/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
/** A character 64 times in a row (not a separator or space). */
const CHAR_RUN = /([^\s\-=_*#.~`|+])\1{63,}/g;
/** A word (up to 30 characters) 20 times in a row. */
const WORD_RUN = /(?<!\S)(\S{1,30})(?:\s+\1(?!\S)){19,}/g;

interface Hit {
  count: number;
  first: number;
  firstEnd: number;
  what: string;
}

function hitsOf(text: string, pattern: RegExp, what: (m: RegExpExecArray) => string): Hit | null {
  let hit: Hit | null = null;
  for (const m of text.matchAll(pattern)) {
    if (!hit) hit = { count: 0, first: m.index, firstEnd: m.index + m[0].length, what: what(m) };
    hit.count++;
  }
  return hit;
}

/** The first sign of garbling in `response`, or null; strength is how many signs it holds. */
export function garbledIn(response: string): Finding | null {
  const text = scanned(response);
  const code = (m: RegExpExecArray): string => `U+${(m[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  const kinds: [Hit | null, (h: Hit) => string][] = [
    [hitsOf(text, REPLACEMENT, () => 'U+FFFD'), (h) => `${h.count} replacement character${h.count === 1 ? '' : 's'} (U+FFFD: bytes that were not text)`],
    [hitsOf(text, CONTROL, code), (h) => `${h.count} control byte${h.count === 1 ? '' : 's'} (first ${h.what})`],
    [hitsOf(text, CHAR_RUN, (m) => m[1] ?? ''), (h) => `a run of one character ("${h.what}" ${h.firstEnd - h.first} times)`],
    [hitsOf(text, WORD_RUN, (m) => m[1] ?? ''), (h) => `a run of one token ("${h.what.slice(0, 30)}" repeated)`],
  ];
  let strength = 0;
  let first: { hit: Hit; note: string } | null = null;
  for (const [hit, note] of kinds) {
    if (!hit) continue;
    strength += hit.count;
    if (!first || hit.first < first.hit.first) first = { hit, note: note(hit) };
  }
  if (!first) return null;
  // A control byte or replacement character alone is one character: some context around it.
  const { hit } = first;
  const wide = hit.firstEnd - hit.first < 8;
  return { strength, span: spanOf(text, wide ? Math.max(0, hit.first - 24) : hit.first, wide ? hit.firstEnd + 24 : hit.firstEnd), note: first.note };
}
