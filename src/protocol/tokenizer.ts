/**
 * Messages between a host (the ONNX scorer, the set-up check) and the tokenizer worker
 * (`dist/tokenizerWorker.js`). JSON-plain, discriminated on `type`; each request carries an id.
 * `build` names the model folder (the worker loads its tokenizer once, and again after a restart)
 * and is answered by `loaded` (the tokenizer is loaded, with the profile resolved against it), one
 * `input` per rollout in order, then `done`; or `failed`. A message per rollout lets the host's
 * time budget know which rollout the worker is on when it stops answering.
 */

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

export type HostToTokenizer = { type: 'build'; id: number; modelDir: string; manifest: ManifestData; items: TokenizeItem[] };

export type TokenizerToHost =
  | { type: 'loaded'; id: number; profile: ProfileData }
  | { type: 'input'; id: number; index: number; input: TokenizedInput | null; error: string | null }
  | { type: 'done'; id: number }
  | { type: 'failed'; id: number; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isItem(value: unknown): value is TokenizeItem {
  return isRecord(value) && typeof value['prompt'] === 'string' && Array.isArray(value['steps']) && value['steps'].every((s) => typeof s === 'string');
}

/** Checks a message received by the tokenizer worker. */
export function isHostToTokenizer(value: unknown): value is HostToTokenizer {
  return isRecord(value) && value['type'] === 'build' && typeof value['id'] === 'number' && typeof value['modelDir'] === 'string'
    && isRecord(value['manifest']) && Array.isArray(value['items']) && value['items'].every(isItem);
}

function isInput(value: unknown): value is TokenizedInput {
  return isRecord(value) && Array.isArray(value['ids']) && Array.isArray(value['separatorPositions'])
    && (value['unscoredFromStep'] === null || typeof value['unscoredFromStep'] === 'number');
}

/** Checks a message received from the tokenizer worker. */
export function isTokenizerToHost(value: unknown): value is TokenizerToHost {
  if (!isRecord(value) || typeof value['id'] !== 'number') return false;
  switch (value['type']) {
    case 'loaded':
      return isRecord(value['profile']);
    case 'input':
      return typeof value['index'] === 'number' && (value['input'] === null || isInput(value['input'])) && (value['error'] === null || typeof value['error'] === 'string');
    case 'done':
      return true;
    case 'failed':
      return typeof value['message'] === 'string';
    default:
      return false;
  }
}
