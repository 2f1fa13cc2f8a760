/**
 * Repetition and degenerate loops in one response: the share of its word 8-grams that already
 * occurred earlier in it, and the line repeated most often. One pass over at most `MAX_WORDS`
 * words (a hash map of n-grams), so a 100 KB loop costs milliseconds.
 */
import { spanOf, type Finding } from './healthTypes';
import { scanned } from './textScan';

const N = 8;
const MAX_WORDS = 30_000;
/** At least this share of the n-grams repeat an earlier one, over at least `MIN_NGRAMS` of them. */
const MIN_REPEATED_SHARE = 0.4;
const MIN_NGRAMS = 40;
/** A line (of at least 8 characters) this many times, making up this share of the lines. */
const MIN_LINE_REPEATS = 6;
const MIN_LINE_SHARE = 0.3;

interface Seen {
  first: number;
  last: number;
  lastEnd: number;
  count: number;
}

/** The words of `text` with where each starts and ends. */
function words(text: string): { starts: number[]; ends: number[]; words: string[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  const list: string[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    if (list.length >= MAX_WORDS) break;
    starts.push(m.index);
    ends.push(m.index + m[0].length);
    list.push(m[0]);
  }
  return { starts, ends, words: list };
}

/** Repeated 8-grams: the share that repeat, and the most repeated one with where it first and last occurs. */
function ngramRepeats(text: string): { share: number; grams: number; top: Seen | null } {
  const w = words(text);
  const grams = w.words.length - N + 1;
  if (grams < MIN_NGRAMS) return { share: 0, grams: Math.max(0, grams), top: null };
  const seen = new Map<string, Seen>();
  let repeated = 0;
  let top: Seen | null = null;
  for (let i = 0; i < grams; i++) {
    const key = w.words.slice(i, i + N).join(' ');
    const s = seen.get(key);
    if (!s) {
      seen.set(key, { first: w.starts[i]!, last: w.starts[i]!, lastEnd: w.ends[i + N - 1]!, count: 1 });
      continue;
    }
    repeated++;
    s.count++;
    s.last = w.starts[i]!;
    s.lastEnd = w.ends[i + N - 1]!;
    if (!top || s.count > top.count) top = s;
  }
  return { share: repeated / grams, grams, top };
}

/** The line (trimmed, 8 characters or more) seen most often, with its count and the share of lines it makes. */
function lineRepeats(text: string): { count: number; share: number; first: number; lastEnd: number; line: string } | null {
  const counts = new Map<string, { count: number; first: number; lastEnd: number }>();
  let lines = 0;
  let best: { count: number; first: number; lastEnd: number; line: string } | null = null;
  let at = 0;
  while (at <= text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(at, end).trim();
    if (line.length >= 8) {
      lines++;
      const c = counts.get(line) ?? { count: 0, first: at, lastEnd: end };
      c.count++;
      c.lastEnd = end;
      counts.set(line, c);
      if (!best || c.count > best.count) best = { ...c, line };
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  return best && lines > 0 ? { ...best, share: best.count / lines } : null;
}

/** A loop in `response`, or null: the span runs from the first to the last repeat of what repeats most. */
export function repetitionIn(response: string): Finding | null {
  const text = scanned(response);
  const line = lineRepeats(text);
  if (line && line.count >= MIN_LINE_REPEATS && line.share >= MIN_LINE_SHARE) {
    const span = spanOf(text, line.first, line.lastEnd);
    return { strength: line.share, span, note: `a line repeated ${line.count} times (${Math.round(line.share * 100)}% of its lines): "${line.line.slice(0, 60)}"` };
  }
  const grams = ngramRepeats(text);
  if (grams.share >= MIN_REPEATED_SHARE && grams.top) {
    const span = spanOf(text, grams.top.first, grams.top.lastEnd);
    return { strength: grams.share, span, note: `${Math.round(grams.share * 100)}% of its ${N}-word phrases repeat an earlier one; the most repeated occurs ${grams.top.count} times` };
  }
  return null;
}
