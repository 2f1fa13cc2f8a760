/**
 * A byte-level BPE tokenizer's vocabulary (GPT-2's scheme, which Qwen2.5 and most RL policies use)
 * read from its `tokenizer.json`, as the bytes each token id stands for. Decoding a response token
 * by token with it says exactly which bytes of the text each token wrote; nothing is merged or
 * guessed. A tokenizer of another kind (SentencePiece, WordPiece) is not read: null.
 */
import { isRecord } from '../isRecord';

/** What one id writes: its bytes; null for a special token (it writes no text); undefined: not in the vocabulary. */
export interface ByteVocab {
  bytesOf(id: number): Uint8Array | null | undefined;
  size: number;
}

/** GPT-2's byte ↔ printable character table: each byte's character in the vocabulary's keys. */
function byteOfChar(): Map<number, number> {
  const map = new Map<number, number>();
  let next = 256;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    map.set(printable ? b : next++, b);
  }
  return map;
}

function keyBytes(key: string, table: Map<number, number>): Uint8Array | null {
  const bytes = new Uint8Array(key.length);
  for (let i = 0; i < key.length; i++) {
    const b = table.get(key.charCodeAt(i));
    if (b === undefined) return null;
    bytes[i] = b;
  }
  return bytes;
}

/** Whether the tokenizer decodes byte-level (its decoder, or one of a sequence's, is `ByteLevel`). */
function isByteLevel(json: Record<string, unknown>): boolean {
  const decoder = json['decoder'];
  if (!isRecord(decoder)) return false;
  if (decoder['type'] === 'ByteLevel') return true;
  const parts = decoder['decoders'];
  return Array.isArray(parts) && parts.some((d) => isRecord(d) && d['type'] === 'ByteLevel');
}

/** The vocabulary of a parsed `tokenizer.json`, or null when it is not a byte-level BPE one. */
export function byteVocabOf(json: unknown): ByteVocab | null {
  if (!isRecord(json) || !isByteLevel(json)) return null;
  const model = json['model'];
  const vocab = isRecord(model) && model['type'] === 'BPE' ? model['vocab'] : undefined;
  if (!isRecord(vocab)) return null;
  const table = byteOfChar();
  const byId = new Map<number, Uint8Array | null>();
  for (const [key, id] of Object.entries(vocab)) {
    if (typeof id !== 'number') continue;
    const bytes = keyBytes(key, table);
    if (!bytes) return null;
    byId.set(id, bytes);
  }
  const added = json['added_tokens'];
  if (Array.isArray(added)) {
    const encoder = new TextEncoder();
    for (const token of added) {
      if (!isRecord(token) || typeof token['id'] !== 'number' || typeof token['content'] !== 'string') continue;
      byId.set(token['id'], token['special'] === true ? null : encoder.encode(token['content']));
    }
  }
  return { bytesOf: (id) => byId.get(id), size: byId.size };
}
