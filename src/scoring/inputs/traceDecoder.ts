/**
 * The decoder open-instruct's token-id traces are read with: the tokenizer runs in its own worker
 * thread (`traceDecoderWorker.js`) under the shared worker policy, with the time budget a model
 * folder's tokenizer has — loading, and each list of ids, must be answered within it. Adapting a
 * record stays synchronous: before records are adapted, `prepare` has their ids decoded in the
 * worker and keeps each text with the very list it came from (a weak map, so texts go with their
 * records); `decode` then only looks it up. A tokenizer that overruns its budget is not used again:
 * every later list gets the same message, and the command goes on with the rest of its work.
 */
import { Worker } from 'node:worker_threads';
import type { SourceRecord } from '../../core/model';
import { TraceDecodeError, type TokenDecoder } from '../../core/formats/trainers';
import { isTraceDecoderToHost, type TraceDecoderToHost } from '../../protocol/traceDecoder';
import { bundledWorkerPath } from '../cas/casClient';
import { SupervisedWorker } from '../workers/supervisedWorker';
import { WorkerCrashError, WorkerStallError } from '../workers/workerPolicy';
import { TOKENIZER_BUDGET_MS } from '../scorers/profiles/tokenizerClient';
import { MAX_DECODED_CHARS } from './traceLimits';

/** A list's text, or why it has none. */
type Decoded = string | Error;

export interface TraceDecoderOptions {
  /** The model id and where its tokenizer was found, for messages. */
  name: string;
  tokenizerPath: string;
  tokenizerConfigPath: string | null;
  /** Milliseconds loading or one list may take (default: a model folder's tokenizer budget, 15 s). */
  budgetMs?: number;
  /** Characters one list may decode to (default `MAX_DECODED_CHARS`). */
  maxChars?: number;
  workerPath?: string;
}

/** Lists of ids sent at once: a message per list keeps the budget per list. */
const BATCH = 256;

/** A token decoder backed by a worker; see the module comment. */
export class TraceDecoder implements TokenDecoder {
  readonly name: string;
  private readonly texts = new WeakMap<readonly number[], Decoded>();
  private readonly worker: SupervisedWorker<TraceDecoderToHost>;
  private readonly budgetMs: number;
  /** Set once the tokenizer overran its budget or failed to load: said for every list after. */
  private broken: TraceDecodeError | null = null;

  constructor(private readonly options: TraceDecoderOptions) {
    this.name = options.name;
    this.budgetMs = options.budgetMs ?? TOKENIZER_BUDGET_MS;
    this.worker = new SupervisedWorker<TraceDecoderToHost>({
      name: 'trace decoder',
      // A heap limit: a decoder that multiplies its tokens' text runs out of memory in its own thread.
      spawn: () => new Worker(options.workerPath ?? bundledWorkerPath('traceDecoderWorker.js'), { resourceLimits: { maxOldGenerationSizeMb: 512 } }),
      isReply: isTraceDecoderToHost,
      idOf: (reply) => reply.id,
      isFinal: (reply) => reply.type === 'done' || reply.type === 'failed',
      stallMs: this.budgetMs,
      cancelGraceMs: this.budgetMs,
      unrefWhenIdle: true,
    });
  }

  decode(ids: readonly number[]): string {
    const text = this.texts.get(ids) ?? this.broken ?? new TraceDecodeError('its token ids were not decoded', false);
    if (text instanceof Error) throw text;
    return text;
  }

  /** Decodes the token ids of every open-instruct trace among `records` (those not decoded yet). */
  async prepare(records: readonly SourceRecord[]): Promise<void> {
    const lists: { ids: number[]; line: number; field: string }[] = [];
    for (const record of records) {
      const value = record.value as Record<string, unknown> | null;
      if (value === null || typeof value !== 'object') continue;
      for (const field of ['prompt_tokens', 'response_tokens']) {
        const ids = value[field];
        if (isIdList(ids) && !this.texts.has(ids)) lists.push({ ids, line: record.line, field });
      }
    }
    for (let start = 0; start < lists.length; start += BATCH) await this.decodeBatch(lists.slice(start, start + BATCH));
  }

  private async decodeBatch(lists: { ids: number[]; line: number; field: string }[]): Promise<void> {
    if (this.broken) {
      for (const l of lists) this.texts.set(l.ids, this.broken);
      return;
    }
    let at = 0;
    try {
      const reply = await this.worker.request((id) => ({ type: 'decode', id, tokenizerPath: this.options.tokenizerPath, tokenizerConfigPath: this.options.tokenizerConfigPath, items: lists.map((l) => l.ids), maxChars: this.options.maxChars ?? MAX_DECODED_CHARS }), {
        onReply: (r) => {
          if (r.type !== 'text') return;
          const list = lists[r.index];
          if (!list) return;
          at = r.index + 1;
          this.texts.set(list.ids, r.text ?? new TraceDecodeError(`${list.field}: ${r.problem ?? 'not decoded'}: the trace is not read`, false));
        },
        retries: 0,
      });
      if (reply.type === 'failed') this.broken = new TraceDecodeError(`open-instruct traces hold token ids only, and the tokenizer ${this.name} could not be loaded: ${reply.message}`, true);
    } catch (error) {
      const line = lists[at]?.line;
      if (error instanceof WorkerStallError) {
        this.broken = new TraceDecodeError(`open-instruct traces hold token ids only, and the tokenizer ${this.name} took more than ${this.budgetMs / 1000} s to load or to decode the token ids of line ${line}: a pattern in its tokenizer.json backtracks without end on some text; it is not used`, true);
      } else if (error instanceof WorkerCrashError) {
        this.broken = new TraceDecodeError(`open-instruct traces hold token ids only, and the tokenizer ${this.name} stopped (out of memory, or a crash) decoding the token ids of line ${line}; it is not used`, true);
      } else throw error;
      await this.worker.dispose();
    }
    for (const l of lists) if (!this.texts.has(l.ids)) this.texts.set(l.ids, this.broken ?? new TraceDecodeError('its token ids were not decoded', false));
  }

  dispose(): Promise<void> {
    return this.worker.dispose();
  }
}

function isIdList(value: unknown): value is number[] {
  if (!Array.isArray(value)) return false;
  for (const v of value) if (!Number.isInteger(v) || (v as number) < 0) return false;
  return true;
}
