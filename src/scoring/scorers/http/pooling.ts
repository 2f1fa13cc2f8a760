/**
 * The two ends of one vLLM `/pooling` call for a process reward model: what to send for a rollout
 * (ChatML text with `<extra_0>` after each step, or pre-tokenized ids cut to the context at a step
 * boundary) and how to read the answer (`data[0].data` = one `[p_neg, p_pos]` pair per separator).
 */
import { buildQwenPrmText, textInputProblem } from './qwenPrompt';
import { previewJson } from '../../../core/presentation/capText';
import { isRecord } from '../../../core/isRecord';

/** What to post for one rollout, and how many pairs must come back. */
export interface PoolingInput {
  input: string | number[];
  /** Number of step separators in `input`: the server must return exactly this many pairs. */
  expectedPairs: number;
  /** Steps left out because they do not fit in the context; they are scored `null`. */
  droppedSteps: number;
}

/** Either an input to send, or the reason the rollout cannot be scored at all. */
export type PoolingPlan = { kind: 'send'; request: PoolingInput } | { kind: 'unscored'; reason: string };

/** Text input: the server tokenizes with the PRM's own tokenizer. */
export function planTextInput(prompt: string, steps: readonly string[]): PoolingPlan {
  const problem = textInputProblem(prompt, steps);
  if (problem !== null) return { kind: 'unscored', reason: `cannot send as text: ${problem}` };
  return { kind: 'send', request: { input: buildQwenPrmText(prompt, steps), expectedPairs: steps.length, droppedSteps: 0 } };
}

/** How pre-tokenized ids are checked and cut. */
export interface TokenInputOptions {
  ids: readonly number[];
  steps: number;
  separatorId: number;
  maxTokens: number;
}

/**
 * Token input, cut after the last separator that fits in `maxTokens`, so the steps that fit keep
 * their exact scores and the rest are reported as not scored for lack of context.
 */
export function planTokenInput(options: TokenInputOptions): PoolingPlan {
  const { ids, steps, separatorId, maxTokens } = options;
  const separators = ids.reduce((count, id) => count + (id === separatorId ? 1 : 0), 0);
  if (separators !== steps) {
    return { kind: 'unscored', reason: `the tokenized input has ${separators} separators (id ${separatorId}) for ${steps} steps` };
  }
  if (ids.length <= maxTokens) {
    return { kind: 'send', request: { input: [...ids], expectedPairs: steps, droppedSteps: 0 } };
  }
  const cut = ids.lastIndexOf(separatorId, maxTokens - 1);
  if (cut < 0) {
    return { kind: 'unscored', reason: `unscored (context): the first step does not fit in ${maxTokens} tokens` };
  }
  const kept = ids.slice(0, cut + 1);
  const fitting = kept.reduce((count, id) => count + (id === separatorId ? 1 : 0), 0);
  return { kind: 'send', request: { input: kept, expectedPairs: fitting, droppedSteps: steps - fitting } };
}

/** The pooling response does not have the documented shape: a server or configuration problem. */
export class PoolingShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoolingShapeError';
  }
}

/**
 * The `[p_neg, p_pos]` pairs of the first result. Anything else (base64 data, a flat vector, raw
 * logits outside [0, 1]) means the server is not serving a PRM with STEP pooling and softmax, and
 * is reported as such rather than read as scores.
 */
export function readPairs(body: unknown): number[][] {
  const results = fieldOf(body, 'data');
  if (!Array.isArray(results) || results.length === 0) {
    throw new PoolingShapeError('the response has no "data" results');
  }
  const data = fieldOf(results[0], 'data');
  if (!Array.isArray(data)) {
    const what = typeof data === 'string' ? 'an encoded string' : describe(data);
    throw new PoolingShapeError(`"data[0].data" is ${what}, not a list of [p_neg, p_pos] pairs`);
  }
  return data.map((pair, index) => checkPair(pair, index));
}

function checkPair(pair: unknown, index: number): number[] {
  const where = `"data[0].data[${index}]" is ${previewJson(pair)}`;
  if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((p) => typeof p === 'number' && Number.isFinite(p))) {
    throw new PoolingShapeError(`${where}, not a [p_neg, p_pos] pair (is the server's pooler a STEP pooler with 2 classes?)`);
  }
  const [negative, positive] = pair as [number, number];
  if (negative < 0 || negative > 1 || positive < 0 || positive > 1) {
    throw new PoolingShapeError(
      `${where}: values outside [0, 1] are logits, not probabilities (is softmax off in the server's pooler config?)`,
    );
  }
  return [negative, positive];
}

function fieldOf(value: unknown, name: string): unknown {
  return isRecord(value) ? value[name] : undefined;
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}
