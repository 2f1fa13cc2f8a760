/**
 * The texts a run's table searches, kept in memory as its step files are read, within a byte
 * limit: a run of hundreds of files holds, at most, `limit` bytes of text (estimated from each
 * string's length and V8's layouts), and once a file does not fit, it and every later file keep
 * none: a search then covers the rollouts before it, and says so (`coverNote`).
 */
import type { RolloutText, RolloutTextSource, TextChunk } from './textSearch';

/** A kept rollout's object and its slot, in bytes. */
const ENTRY_BYTES = 48;
/** A string's header. */
const STRING_BYTES = 16;
/** A character above Latin-1: V8 holds the whole string two bytes a character. */
const TWO_BYTE = /[^\u0000-\u00ff]/;
/** Rollouts per chunk a search reads between looks at its signal. */
const CHUNK_ROWS = 4096;

/** What keeping `text` costs, estimated. */
export function textBytes(text: string): number {
  return STRING_BYTES + text.length * (TWO_BYTE.test(text) ? 2 : 1);
}

const turn = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class RunTexts {
  private readonly texts: RolloutText[] = [];
  private used = 0;
  private isCapped = false;

  constructor(readonly limit: number) {}

  /** Rollouts 0 … held − 1 have their texts here. */
  get held(): number {
    return this.texts.length;
  }

  /** A file's texts did not fit: it and the files after it keep none. */
  get capped(): boolean {
    return this.isCapped;
  }

  /** What the kept texts take (estimated). */
  get bytes(): number {
    return this.used;
  }

  /**
   * Keeps one file's texts (its rows in order, right after the rows kept so far) if they all fit;
   * false when they do not (nothing is kept then, nor from any later file). A prompt equal to the
   * one before it is counted once: it is the same string.
   */
  add(texts: readonly RolloutText[]): boolean {
    if (this.isCapped) return false;
    let cost = 0;
    let lastPrompt = this.texts[this.texts.length - 1]?.prompt ?? null;
    for (const t of texts) {
      cost += ENTRY_BYTES + textBytes(t.response) + (t.prompt === lastPrompt ? 0 : textBytes(t.prompt));
      lastPrompt = t.prompt;
    }
    if (this.used + cost > this.limit) {
      this.isCapped = true;
      return false;
    }
    this.used += cost;
    for (const t of texts) this.texts.push(t);
    return true;
  }

  /** The kept texts as a search's source (rows past `held` have none: a search skips them). */
  source(): RolloutTextSource {
    const texts = this.texts;
    return {
      async *chunks(signal?: AbortSignal): AsyncIterable<TextChunk> {
        const held = texts.length;
        for (let from = 0; from < held; from += CHUNK_ROWS) {
          const to = Math.min(held, from + CHUNK_ROWS);
          const rows: number[] = [];
          for (let r = from; r < to; r++) rows.push(r);
          yield { rows, texts: texts.slice(from, to) };
          await turn();
          signal?.throwIfAborted();
        }
      },
      read: (rows) => Promise.resolve(rows.map((r) => texts[r] ?? null)),
    };
  }

  /** What a search over `total` rows covers, in words, when it does not cover them all; null when it does. */
  coverNote(total: number): string | null {
    if (this.texts.length >= total) return null;
    const mib = Math.round(this.limit / (1024 * 1024));
    return `search covers the first ${this.texts.length.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rollouts (texts kept up to ${mib} MiB)`;
  }
}
