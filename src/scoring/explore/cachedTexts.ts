/**
 * Rollout texts read back from disk, kept as the first search reads them, so the searches after it
 * run over texts in memory instead of reading and parsing every line again. The texts are kept in
 * file order, a prefix of the rollouts at a time (a search cancelled half-way leaves the half it
 * read; the next one goes on from there), as the strings the reading made (a text of Latin-1
 * characters is one byte a character), a prompt repeated by the rollouts after it held once.
 * What they take is counted against a budget shared by every file explored in the process; when
 * it runs out, the texts kept so far stay and the rest are read from disk on every search.
 */
import type { RolloutText, RolloutTextSource, TextChunk } from '../../core/explore/textSearch';
import type { DiskTextSource } from './diskTexts';

/**
 * The bytes kept texts may take, all the files explored in one process together: 640 MiB. The
 * explorer benchmark's 1,000,000-rollout dump (301 MB) keeps all of its texts in 208 MiB
 * (estimated), the large-file benchmark's 600 MB dump in 546 MiB.
 */
export const TEXT_CACHE_BYTES = 640 * 1024 * 1024;

/** A share of memory that kept texts draw from, and give back when their file is let go. */
export class TextBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  /** Bytes drawn now. */
  get inUse(): number {
    return this.used;
  }

  /** Draws `bytes` if they fit. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

/** The budget of the process (the editor's analysis worker, a command). */
export const processTextBudget = new TextBudget(TEXT_CACHE_BYTES);

/** A disk source whose texts are kept as they are read. */
export interface CachedTextSource extends RolloutTextSource {
  /** Rollouts 0 … `held` − 1 have their texts in memory. */
  readonly held: number;
  /** Every rollout's texts are in memory: a search reads nothing from disk. */
  readonly complete: boolean;
  /** The budget ran out first: rollouts from `held` on are read from disk on every search. */
  readonly capped: boolean;
  /** What the kept texts take (estimated from their lengths and V8's string layouts). */
  readonly bytes: number;
  /** Lets the kept texts go, and gives their bytes back; later searches read from disk. */
  release(): void;
}

/** Rollouts per chunk of kept texts. */
const CHUNK_ROWS = 16384;
/** A kept rollout's object of two fields and its slot in the array, in bytes. */
const ENTRY_BYTES = 48;
/** A string's header. */
const STRING_BYTES = 16;
/** A character above Latin-1: V8 holds the whole string two bytes a character. */
const TWO_BYTE = /[^\u0000-\u00ff]/;

function stringBytes(text: string): number {
  return STRING_BYTES + text.length * (TWO_BYTE.test(text) ? 2 : 1);
}

const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** `disk`'s texts (`count` rollouts), kept within `budget` as searches read them. */
export function cachedTexts(disk: DiskTextSource, count: number, budget: TextBudget = processTextBudget): CachedTextSource {
  /** Kept texts by rollout; null: the rollout has no line to read (the disk source skips it). */
  let held: (RolloutText | null)[] = [];
  let bytes = 0;
  let capped = false;
  let released = false;
  let lastPrompt: string | null = null;
  /** The scan that fills the cache (one at a time: the others read past it without keeping). */
  let filler: object | null = null;

  /** Keeps a chunk read by the filling scan; false when the budget ran out. */
  function keep(chunk: TextChunk): boolean {
    const { rows, texts } = chunk;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (row < held.length) continue;
      const text = texts[i]!;
      const repeated = text.prompt === lastPrompt;
      const cost = ENTRY_BYTES * (row + 1 - held.length) + stringBytes(text.response) + (repeated ? 0 : stringBytes(text.prompt));
      if (!budget.take(cost)) {
        capped = true;
        return false;
      }
      bytes += cost;
      while (held.length < row) held.push(null);
      held.push(repeated ? { prompt: lastPrompt as string, response: text.response } : text);
      lastPrompt = text.prompt;
    }
    return true;
  }

  /** Rollouts with no line read after the last kept one: kept as nothing to search. */
  function finish(): void {
    const cost = ENTRY_BYTES * (count - held.length);
    if (cost > 0 && !budget.take(cost)) {
      capped = true;
      return;
    }
    bytes += cost;
    while (held.length < count) held.push(null);
  }

  return {
    get held() {
      return held.length;
    },
    get complete() {
      return held.length >= count;
    },
    get capped() {
      return capped;
    },
    get bytes() {
      return bytes;
    },
    async *chunks(signal) {
      let row = 0;
      while (row < held.length) {
        const end = Math.min(held.length, row + CHUNK_ROWS);
        const rows: number[] = [];
        const texts: RolloutText[] = [];
        for (let r = row; r < end; r++) {
          const text = held[r];
          if (!text) continue;
          rows.push(r);
          texts.push(text);
        }
        row = end;
        if (rows.length > 0) yield { rows, texts };
        // A turn of the event loop between chunks, so a cancel message is read in time.
        await turn();
        signal?.throwIfAborted();
      }
      if (row >= count) return;
      const scan = {};
      const fills = filler === null && !capped && !released;
      if (fills) filler = scan;
      try {
        for await (const chunk of disk.chunksFrom(row, signal)) {
          if (filler === scan && !keep(chunk)) filler = null;
          yield chunk;
        }
        if (filler === scan) finish();
      } finally {
        if (filler === scan) filler = null;
      }
    },
    async read(rows, signal) {
      const texts: (RolloutText | null)[] = rows.map((row) => (row >= 0 && row < held.length ? held[row]! : null));
      const unread = rows.filter((row) => row >= held.length && row < count);
      if (unread.length === 0) return texts;
      const fromDisk = await disk.read(unread, signal);
      const byRow = new Map(unread.map((row, i) => [row, fromDisk[i] ?? null]));
      return rows.map((row, i) => texts[i] ?? byRow.get(row) ?? null);
    },
    release() {
      released = true;
      filler = null;
      held = [];
      lastPrompt = null;
      budget.give(bytes);
      bytes = 0;
    },
  };
}
