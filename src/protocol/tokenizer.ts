/**
 * Messages between a host (the ONNX scorer, the set-up check) and the tokenizer worker
 * (`dist/tokenizerWorker.js`). JSON-plain, discriminated on `type`; each request carries an id.
 * `build` names the model folder (the worker loads its tokenizer once, and again after a restart)
 * and is answered by `loaded` (the tokenizer is loaded, with the profile resolved against it), one
 * `input` per rollout in order, then `done`; or `failed`. A message per rollout lets the host's
 * time budget know which rollout the worker is on when it stops answering.
 */
import { arrayOf, isArray, isNumber, isRecord, isString, nullable, shape, type Guard } from './guards';
import { message, protocol, request, type Sent } from './messages';

/** A rollout's input ids and where its step scores are read (the scorer's `PrmInput`). */
export interface TokenizedInput {
  ids: number[];
  separatorPositions: number[];
  unscoredFromStep: number | null;
}

/** A model folder's `prof-lens.json` as parsed, and the profile resolved against the tokenizer (both JSON-plain, checked by the scorer). */
export type ManifestData = object;
export type ProfileData = object;

/** One rollout to tokenize. */
export interface TokenizeItem {
  prompt: string;
  steps: string[];
}

const isItem: Guard<TokenizeItem> = shape({ prompt: isString, steps: arrayOf(isString) });
const isInput: Guard<TokenizedInput> = shape({ ids: isArray as Guard<number[]>, separatorPositions: isArray as Guard<number[]>, unscoredFromStep: nullable(isNumber) });

/** The tokenizer is loaded, with the profile resolved against it. */
export const loaded = message('toHost', 'loaded', { id: isNumber, profile: isRecord as Guard<ProfileData> });
/** One rollout's input (or why it has none), in order. */
export const input = message('toHost', 'input', { id: isNumber, index: isNumber, input: nullable(isInput), error: nullable(isString) });
export const done = message('toHost', 'done', { id: isNumber });
export const failed = message('toHost', 'failed', { id: isNumber, message: isString });

export const build = request('fromHost', 'build', {
  id: isNumber,
  modelDir: isString,
  manifest: isRecord as Guard<ManifestData>,
  items: arrayOf(isItem),
}, { replies: [done, failed], updates: [loaded, input] });

/** The tokenizer worker's channel. */
export const tokenizerProtocol = protocol(build);
export type HostToTokenizer = Sent<typeof tokenizerProtocol, 'fromHost'>;
export type TokenizerToHost = Sent<typeof tokenizerProtocol, 'toHost'>;
/** Checks a message received by the tokenizer worker. */
export const isHostToTokenizer = tokenizerProtocol.guard('fromHost');
/** Checks a message received from the tokenizer worker. */
export const isTokenizerToHost = tokenizerProtocol.guard('toHost');
