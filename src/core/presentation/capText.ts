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
