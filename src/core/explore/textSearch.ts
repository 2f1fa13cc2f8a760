/**
 * Searching every rollout's prompt and response: the texts stream in chunks from a source (the
 * analysis's own texts in memory, or lines read back from disk), so memory holds one chunk of text
 * at a time whatever the file's size; what is kept is a few bytes per rollout (did it match, and
 * where first). Cancellable between texts. Prompts repeat across a group's rollouts: a prompt equal
 * to the one before it is not searched again.
 */
import type { AnalysedRollout } from '../report/fileAnalysis';
import type { TextQuery } from './explorerQuery';
import type { MatchRange, TextMatcher } from './textMatcher';

/** The two texts of one rollout. */
export interface RolloutText {
  prompt: string;
  response: string;
}

/** A run of rollouts' texts, in file order: `rows[i]` has `texts[i]`. */
export interface TextChunk {
  rows: readonly number[];
  texts: readonly RolloutText[];
}

/** Where the explorer gets texts from. */
export interface RolloutTextSource {
  /** Every rollout's texts, in file order, a chunk at a time. */
  chunks(signal?: AbortSignal): AsyncIterable<TextChunk>;
  /** The texts of some rollouts (a page, for its highlights); null where a text cannot be had. */
  read(rows: readonly number[], signal?: AbortSignal): Promise<(RolloutText | null)[]>;
}

/** Which rollouts matched, and each one's first match. */
export interface SearchHits {
  count: number;
  /** 1 where the rollout matched. */
  matched: Uint8Array;
  /** 0: the first match is in the prompt; 1: in the response. */
  field: Uint8Array;
  start: Int32Array;
  end: Int32Array;
}

export interface SearchOptions {
  signal?: AbortSignal;
  /** Rollouts searched so far. */
  onProgress?: (done: number) => void;
}

/** Texts between two looks at the signal. */
const TEXTS_PER_CHECK = 256;

/** Searches every rollout of a source (`count` rollouts) for `query`. */
export async function searchTexts(source: RolloutTextSource, count: number, query: TextQuery, matcher: TextMatcher, options: SearchOptions = {}): Promise<SearchHits> {
  const hits: SearchHits = { count: 0, matched: new Uint8Array(count), field: new Uint8Array(count), start: new Int32Array(count), end: new Int32Array(count) };
  const inPrompt = query.fields === undefined || query.fields.includes('prompt');
  const inResponse = query.fields === undefined || query.fields.includes('response');
  let lastPrompt: string | null = null;
  let lastPromptMatch: MatchRange | null = null;
  let done = 0;
  for await (const chunk of source.chunks(options.signal)) {
    const { rows, texts } = chunk;
    for (let i = 0; i < rows.length; i++) {
      if (i % TEXTS_PER_CHECK === 0) options.signal?.throwIfAborted();
      const text = texts[i] as RolloutText;
      let match: MatchRange | null = null;
      let field = 0;
      if (inPrompt) {
        if (text.prompt !== lastPrompt) {
          lastPrompt = text.prompt;
          lastPromptMatch = matcher.first(text.prompt);
        }
        match = lastPromptMatch;
      }
      if (!match && inResponse) {
        match = matcher.first(text.response);
        field = 1;
      }
      const row = rows[i] as number;
      if (!match || row < 0 || row >= count) continue;
      hits.matched[row] = 1;
      hits.field[row] = field;
      hits.start[row] = match[0];
      hits.end[row] = match[1];
      hits.count++;
    }
    done += rows.length;
    options.onProgress?.(done);
  }
  options.signal?.throwIfAborted();
  return hits;
}

/** Rollouts read per chunk from memory. */
const MEMORY_CHUNK = 16384;

/**
 * The texts an analysis kept (the editor's analysis of its own text, or the CLI's with texts):
 * nothing is read, the chunks are views of the rollouts.
 */
export function memoryTexts(rollouts: readonly Pick<AnalysedRollout, 'prompt' | 'response'>[]): RolloutTextSource {
  return {
    async *chunks() {
      for (let start = 0; start < rollouts.length; start += MEMORY_CHUNK) {
        const end = Math.min(rollouts.length, start + MEMORY_CHUNK);
        const rows: number[] = [];
        const texts: RolloutText[] = [];
        for (let row = start; row < end; row++) {
          rows.push(row);
          texts.push(rollouts[row] as RolloutText);
        }
        yield { rows, texts };
        // A turn of the event loop between chunks, so a cancel message is read in time.
        await new Promise<void>((resolve) => setTimeout(resolve, 0));
      }
    },
    read(rows) {
      return Promise.resolve(rows.map((row) => rollouts[row] ?? null));
    },
  };
}
