/**
 * What a trainer's record says about its responses beyond their text: whether each stopped at the
 * length limit, and its per-token signals. Read from the record as the trainer wrote it:
 * - length limit: `finish_reason` / `stop_reason` of `length` (vLLM, SGLang), slime's `status` of
 *   `truncated`, a `truncated` / `is_truncated` flag;
 * - entropy: prime-rl's token export `entropy` (also `entropies`, `token_entropy`);
 * - log-probabilities of the sampled tokens at inference: NeMo-RL `generation_logprobs`, prime-rl
 *   `inference_logprobs`, slime `rollout_log_probs` (also `logprobs`);
 * - the trainer's own: NeMo-RL `prev_logprobs`, prime-rl `logprobs` beside `inference_logprobs`;
 *   prime-rl's `mismatch_kl` directly.
 * A value is one response's (a list of numbers, or a scalar), or a batch of them (a list of lists,
 * picked by response index). NeMo-RL's `token_loss_mask` keeps the generated tokens only.
 */
import { isRecord } from '../isRecord';

/** A response's per-token figures, as means over its tokens. */
export interface TokenStats {
  entropy: number | null;
  /** Mean log-probability of the sampled tokens (≤ 0). */
  logprob: number | null;
  /** Mean |inference − trainer| log-probability, or the trainer's `mismatch_kl`. */
  mismatch: number | null;
}

/** What a record says about one of its responses. */
export interface ResponseExtras {
  /** True: stopped at the length limit; false: stopped on its own; null: the record does not say. */
  truncated: boolean | null;
  tokens: TokenStats | null;
}

const FINISH_KEYS = ['finish_reason', 'stop_reason', 'status'] as const;
const FLAG_KEYS = ['truncated', 'is_truncated'] as const;
export const ENTROPY_KEYS = ['entropy', 'entropies', 'token_entropy'] as const;
export const INFERENCE_KEYS = ['generation_logprobs', 'inference_logprobs', 'rollout_log_probs'] as const;
export const TRAINER_KEYS = ['prev_logprobs', 'logprobs', 'old_logprobs'] as const;
export const MASK_KEYS = ['token_loss_mask', 'loss_mask', 'response_mask'] as const;

/** One response's value of a field: `value[index]` of a batch, or the value itself for index 0. */
function pick(value: unknown, index: number): unknown {
  if (Array.isArray(value) && value.length > 0 && (Array.isArray(value[0]) || typeof value[0] === 'string' || typeof value[0] === 'boolean')) return value[index];
  return index === 0 ? value : undefined;
}

function field(record: Record<string, unknown>, keys: readonly string[], index: number): unknown {
  for (const k of keys) {
    if (!(k in record)) continue;
    const v = pick(record[k], index);
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

function numbers(v: unknown): number[] | null {
  if (typeof v === 'number' && Number.isFinite(v)) return [v];
  if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number')) return null;
  return v as number[];
}

/** Mean of `values` where `mask` (same length) is non-zero; all of them without a mask. */
function maskedMean(values: readonly number[], mask: readonly number[] | null): number | null {
  let total = 0;
  let count = 0;
  const useMask = mask !== null && mask.length === values.length;
  for (let i = 0; i < values.length; i++) {
    if (useMask && mask[i] === 0) continue;
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    total += v;
    count++;
  }
  return count > 0 ? total / count : null;
}

function meanAbsDiff(a: readonly number[], b: readonly number[], mask: readonly number[] | null): number | null {
  if (a.length !== b.length) return null;
  return maskedMean(a.map((x, i) => Math.abs(x - b[i]!)), mask);
}

function truncatedOf(record: Record<string, unknown>, index: number): boolean | null {
  const reason = field(record, FINISH_KEYS, index);
  if (typeof reason === 'string') return reason === 'length' || reason === 'truncated' || reason === 'max_tokens';
  const flag = field(record, FLAG_KEYS, index);
  return typeof flag === 'boolean' ? flag : null;
}

function tokensOf(record: Record<string, unknown>, index: number): TokenStats | null {
  const mask = numbers(field(record, MASK_KEYS, index));
  const entropy = numbers(field(record, ENTROPY_KEYS, index));
  const inference = numbers(field(record, INFERENCE_KEYS, index));
  const trainer = numbers(field(record, TRAINER_KEYS, index));
  const kl = numbers(field(record, ['mismatch_kl'], index));
  const logprobs = inference ?? trainer;
  const stats: TokenStats = {
    entropy: entropy ? maskedMean(entropy, mask) : null,
    logprob: logprobs ? maskedMean(logprobs, mask) : null,
    mismatch: kl ? maskedMean(kl, kl.length === mask?.length ? mask : null) : inference && trainer ? meanAbsDiff(inference, trainer, mask) : null,
  };
  return stats.entropy === null && stats.logprob === null && stats.mismatch === null ? null : stats;
}

/**
 * What `value` (a record, or a prime-rl trace inside one) says about response `index`. A prime-rl
 * record keeps its token export in `traces[index]`, so that is looked into when the record has none.
 */
export function responseExtras(value: unknown, index: number): ResponseExtras {
  if (!isRecord(value)) return { truncated: null, tokens: null };
  const own = { truncated: truncatedOf(value, index), tokens: tokensOf(value, index) };
  const traces = value['traces'];
  const trace = Array.isArray(traces) ? (traces[index] as unknown) : undefined;
  if (!isRecord(trace) || (own.tokens && own.truncated !== null)) return own;
  return { truncated: own.truncated ?? traceTruncated(trace), tokens: own.tokens ?? traceTokens(trace) };
}

/** A prime-rl trace's finish: its last model call's `finish_reason`. */
function traceTruncated(trace: Record<string, unknown>): boolean | null {
  const calls = trace['calls'];
  const last = Array.isArray(calls) ? (calls[calls.length - 1] as unknown) : undefined;
  return isRecord(last) ? truncatedOf(last, 0) : truncatedOf(trace, 0);
}

/** A prime-rl trace's tokens: the `logprobs` / `entropy` of its sampled nodes, joined. */
function traceTokens(trace: Record<string, unknown>): TokenStats | null {
  const nodes = trace['nodes'];
  if (!Array.isArray(nodes)) return tokensOf(trace, 0);
  const joined: Record<string, number[]> = {};
  for (const node of nodes) {
    if (!isRecord(node) || node['sampled'] !== true) continue;
    for (const key of [...ENTROPY_KEYS, ...INFERENCE_KEYS, ...TRAINER_KEYS, 'mismatch_kl']) {
      const v = numbers(node[key]);
      if (!v) continue;
      const list = (joined[key] ??= []);
      for (const x of v) list.push(x);
    }
  }
  return tokensOf(joined, 0);
}
