/**
 * A response's per-token values as its record carries them, token by token (not as means): the
 * log-probabilities and entropies of the generated tokens, and what could place each token on the
 * response's text — its id, or its text when the dump writes it. The same fields the health audit
 * reads (`../health/tokenFields.ts`):
 * - prime-rl: `traces[i].nodes[*]` with `sampled: true` (`token_ids`, `logprobs`, `entropy`, `mask`);
 * - NeMo-RL: `token_ids` of the whole sequence with `token_loss_mask` marking the generated tokens,
 *   `generation_logprobs` (else `prev_logprobs`) over the same sequence;
 * - open-instruct: `response_tokens` with `logprobs`;
 * - otherwise `response_ids` / `response_token_ids` / `output_token_ids` beside the value lists, and
 *   token texts in `tokens` / `token_strs` / `output_tokens` when they are strings.
 * Where a mask has the values' length, only the tokens it keeps are kept (values, ids and texts alike).
 */
import { isRecord } from '../isRecord';
import { ENTROPY_KEYS, INFERENCE_KEYS, MASK_KEYS, TRAINER_KEYS } from '../health/tokenFields';

/** One response's tokens as the record gives them. */
export interface ResponseTokens {
  /** Log-probability of each sampled token (≤ 0), or null when the record has none. */
  logprobs: number[] | null;
  /** Entropy of each token's distribution (nats), or null. */
  entropies: number[] | null;
  /** Each token's id, when the record has them for exactly these tokens. */
  ids: number[] | null;
  /** Each token's text, when the record writes it. */
  texts: string[] | null;
  /** The model the record names, when it names one (its tokenizer decodes `ids`). */
  model: string | null;
}

const ID_KEYS = ['response_tokens', 'response_ids', 'response_token_ids', 'output_token_ids', 'token_ids'] as const;
const TEXT_KEYS = ['tokens', 'token_strs', 'output_tokens'] as const;
const MODEL_KEYS = ['model', 'model_name'] as const;

/** The list for response `index`: `value[index]` of a batch of lists, or the list itself for index 0. */
function listAt(value: unknown, index: number): unknown[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  if (Array.isArray(value[0])) return Array.isArray(value[index]) ? (value[index] as unknown[]) : null;
  return index === 0 ? value : null;
}

function firstList(record: Record<string, unknown>, keys: readonly string[], index: number): unknown[] | null {
  for (const k of keys) {
    const list = listAt(record[k], index);
    if (list) return list;
  }
  return null;
}

function numbersIn(list: unknown[] | null): number[] | null {
  return list && list.every((x) => typeof x === 'number') ? (list as number[]) : null;
}

function stringsIn(list: unknown[] | null): string[] | null {
  return list && list.every((x) => typeof x === 'string') ? (list as string[]) : null;
}

/** `list` where `keep` (the same length) is true or non-zero; `list` itself without a usable mask. */
function masked<T>(list: T[] | null, keep: readonly unknown[] | null): T[] | null {
  if (!list || !keep || keep.length !== list.length) return list;
  return list.filter((_, i) => keep[i] === true || (typeof keep[i] === 'number' && keep[i] !== 0));
}

/** Same-length lists only: ids or texts of another length are not these tokens'. */
function sameLength<T>(list: T[] | null, length: number): T[] | null {
  return list && list.length === length ? list : null;
}

function fromLists(record: Record<string, unknown>, index: number, mask: unknown[] | null, model: string | null): ResponseTokens | null {
  const entropies = masked(numbersIn(firstList(record, ENTROPY_KEYS, index)), mask);
  const logprobs = masked(numbersIn(firstList(record, INFERENCE_KEYS, index)) ?? numbersIn(firstList(record, TRAINER_KEYS, index)), mask);
  const length = logprobs?.length ?? entropies?.length;
  if (length === undefined || length === 0) return null;
  return {
    logprobs: sameLength(logprobs, length),
    entropies: sameLength(entropies, length),
    ids: sameLength(masked(numbersIn(firstList(record, ID_KEYS, index)), mask), length),
    texts: sameLength(masked(stringsIn(firstList(record, TEXT_KEYS, index)), mask), length),
    model,
  };
}

function modelOf(record: Record<string, unknown>): string | null {
  for (const k of MODEL_KEYS) if (typeof record[k] === 'string' && record[k] !== '') return record[k] as string;
  return null;
}

/** A prime-rl trace's sampled nodes, joined in order. */
function traceTokens(trace: Record<string, unknown>): ResponseTokens | null {
  const nodes = trace['nodes'];
  if (!Array.isArray(nodes)) return null;
  const joined: Record<string, unknown[]> = {};
  for (const node of nodes) {
    if (!isRecord(node) || node['sampled'] !== true) continue;
    const keep = Array.isArray(node['mask']) ? (node['mask'] as unknown[]) : null;
    for (const key of [...ENTROPY_KEYS, ...INFERENCE_KEYS, ...TRAINER_KEYS, 'token_ids', ...TEXT_KEYS]) {
      const list = listAt(node[key], 0);
      if (!list) continue;
      const kept = masked(list, keep) ?? list;
      const into = (joined[key] ??= []);
      for (const x of kept) into.push(x);
    }
  }
  const agent = trace['agent'];
  const config = isRecord(agent) ? agent['config'] : undefined;
  return fromLists(joined, 0, null, isRecord(config) ? modelOf(config) : null);
}

/** Response `index`'s tokens in `value` (a record), or null when it carries no per-token values. */
export function responseTokens(value: unknown, index: number): ResponseTokens | null {
  if (!isRecord(value)) return null;
  const traces = value['traces'];
  const trace = Array.isArray(traces) ? (traces[index] as unknown) : undefined;
  if (isRecord(trace)) {
    const fromTrace = traceTokens(trace);
    if (fromTrace) return fromTrace;
  }
  const mask = firstList(value, MASK_KEYS, index);
  return fromLists(value, index, mask, modelOf(value));
}
