/**
 * Messages that quote input (a key, an answer, a server's error body, a model id) quote a few
 * hundred characters of it at most, and say how much they left out: a 20 MB key must not make a
 * 40 MB diagnostic, a Problems entry or a terminal line.
 */

/** Longest quotation of input in a message. */
export const MAX_QUOTED_CHARS = 300;

/** `text`, or its first `max` characters and `… (20 MB)`; never a half of a surrogate pair. */
export function capText(text: string, max = MAX_QUOTED_CHARS): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}… (${sizeWords(text.length)})`;
}

/** A text's length in words a person reads at a glance: `20 MB`, `512 KB`, `1,234 characters`. */
export function sizeWords(chars: number): string {
  if (chars >= 1024 * 1024) return `${(chars / 1048576).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;
  if (chars >= 10 * 1024) return `${Math.round(chars / 1024).toLocaleString('en-US')} KB`;
  return `${chars.toLocaleString('en-US')} characters`;
}

/**
 * A JSON value as a message quotes it: its JSON text, cut after about `max` characters with `…`.
 * Walked without recursion and stopped as soon as it is long enough, so a pair of two million
 * numbers or an array nested a million deep costs a few hundred characters, not megabytes or the
 * stack.
 */
export function previewJson(value: unknown, max = 120): string {
  let out = '';
  type Frame = { items: unknown[]; at: number; close: string; keys: string[] | null };
  const frames: Frame[] = [];
  const open = (v: unknown): void => {
    if (v !== null && typeof v === 'object') {
      const keys = Array.isArray(v) ? null : Object.keys(v);
      const items = Array.isArray(v) ? v : keys!.map((k) => (v as Record<string, unknown>)[k]);
      out += Array.isArray(v) ? '[' : '{';
      frames.push({ items, at: 0, close: Array.isArray(v) ? ']' : '}', keys });
    } else out += v === undefined ? 'undefined' : capText(JSON.stringify(v) ?? String(v), max);
  };
  open(value);
  while (frames.length > 0 && out.length <= max) {
    const top = frames[frames.length - 1]!;
    if (top.at >= top.items.length) {
      out += top.close;
      frames.pop();
      continue;
    }
    if (top.at > 0) out += ',';
    if (top.keys) out += `${JSON.stringify(top.keys[top.at])}:`;
    open(top.items[top.at++]);
  }
  return out.length > max || frames.length > 0 ? `${out.slice(0, max)}…` : out;
}
