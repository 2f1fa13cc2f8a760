/**
 * Where each token of a response sits in its text. A token is placed only when the tokens, written
 * one after another, give back the response's text exactly: every byte of every token is compared
 * with the text's UTF-8 bytes, in one pass. Anything else (an id the vocabulary lacks, a byte that
 * differs, text left over at either end) places nothing, and says where it failed. Special tokens
 * (end of turn) write no text and are placed nowhere.
 */

/** The most tokens one response may have to be placed (one pass over them; more is not a response). */
export const MAX_PLACED_TOKENS = 262_144;

/** Per token, `[start, end)` in the response text as `starts[i]`, `ends[i]`; -1 for a token that writes no text. */
export type Placement =
  | { isPlaced: true; starts: Int32Array; ends: Int32Array }
  | { isPlaced: false; reason: string };

/** For each byte of `text`'s UTF-8 bytes, the index of the character it belongs to; and the bytes. */
function utf8WithChars(text: string): { bytes: Uint8Array; charAt: Int32Array } {
  const bytes = new TextEncoder().encode(text);
  const charAt = new Int32Array(bytes.length + 1);
  let b = 0;
  for (let c = 0; c < text.length; c++) {
    const code = text.codePointAt(c) as number;
    const width = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    for (let k = 0; k < width; k++) charAt[b++] = c;
    if (code >= 0x10000) c++;
  }
  charAt[bytes.length] = text.length;
  return { bytes, charAt };
}

/** Where a byte offset ends a span: the character after the one it is inside, when it is inside one. */
function endChar(charAt: Int32Array, byte: number, length: number): number {
  if (byte >= length) return charAt[length] as number;
  const c = charAt[byte] as number;
  return byte > 0 && charAt[byte - 1] === c ? c + 1 : c;
}

/**
 * Places tokens given as the bytes each writes (null: a special token; undefined: an id the
 * vocabulary does not have) on `text`.
 */
export function placeTokenBytes(text: string, tokens: readonly (Uint8Array | null | undefined)[]): Placement {
  if (tokens.length > MAX_PLACED_TOKENS) return { isPlaced: false, reason: `it has ${tokens.length.toLocaleString('en-US')} tokens, more than the ${MAX_PLACED_TOKENS.toLocaleString('en-US')} placed per response` };
  const { bytes, charAt } = utf8WithChars(text);
  const starts = new Int32Array(tokens.length);
  const ends = new Int32Array(tokens.length);
  let at = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === undefined) return { isPlaced: false, reason: `token ${i + 1} is not in the tokenizer's vocabulary` };
    if (token === null || token.length === 0) {
      starts[i] = -1;
      ends[i] = -1;
      continue;
    }
    for (let k = 0; k < token.length; k++) {
      if (bytes[at + k] !== token[k]) return { isPlaced: false, reason: `token ${i + 1} decodes to text that differs from the response at character ${(charAt[Math.min(at + k, bytes.length)] as number) + 1}` };
    }
    starts[i] = charAt[at] as number;
    at += token.length;
    ends[i] = endChar(charAt, at, bytes.length);
  }
  if (at !== bytes.length) return { isPlaced: false, reason: `the tokens decode to ${charAt[at]} of the response's ${text.length} characters` };
  return { isPlaced: true, starts, ends };
}

/** Places tokens given as their texts (as some dumps write them) on `text`. */
export function placeTokenTexts(text: string, texts: readonly string[]): Placement {
  if (texts.length > MAX_PLACED_TOKENS) return placeTokenBytes(text, new Array<null>(texts.length));
  const encoder = new TextEncoder();
  return placeTokenBytes(text, texts.map((t) => encoder.encode(t)));
}
