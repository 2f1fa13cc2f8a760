/**
 * The checkpoint's own tokenizer, loaded from `tokenizer.json` + `tokenizer_config.json` in the
 * model folder with no network. The prompt builder sees only the small `PrmTokenizer` interface,
 * so another scorer can hand it any tokenizer that encodes like the checkpoint's.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';

/** What the PRM prompt builder needs from a tokenizer. */
export interface PrmTokenizer {
  /**
   * Token ids of `text`. Special tokens written in the text (`<|im_end|>`) become their ids.
   * `addSpecialTokens` runs the tokenizer's post-processor (e.g. a Llama `<s>`); default false.
   * `plainIds`: added tokens whose text is read as ordinary characters here. A PRM's step
   * separator is one (`<extra_0>` in the Qwen PRM's vocabulary): the scorer inserts it by id, and
   * the same text inside a rollout is what the policy wrote, not a step boundary.
   */
  encode(text: string, options?: { addSpecialTokens?: boolean; plainIds?: readonly number[] }): number[];
  /** The beginning-of-sequence id from `tokenizer_config.json`, or null when it names none. */
  readonly bosId: number | null;
  /** The padding id from `tokenizer_config.json`, or null when it names none. */
  readonly padId: number | null;
}

function tokenContent(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && typeof (value as { content?: unknown }).content === 'string') {
    return (value as { content: string }).content;
  }
  return null;
}

function addedTokensOf(tokenizerJson: object): { id: number }[] {
  const list = (tokenizerJson as { added_tokens?: unknown }).added_tokens;
  return Array.isArray(list) ? list.filter((t): t is { id: number } => typeof (t as { id?: unknown })?.id === 'number') : [];
}

/** Wraps parsed `tokenizer.json` and `tokenizer_config.json` objects. */
export function createPrmTokenizer(tokenizerJson: object, tokenizerConfig: Record<string, unknown>): PrmTokenizer {
  const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  const idOf = (key: string): number | null => {
    const content = tokenContent(tokenizerConfig[key]);
    return content === null ? null : (tokenizer.token_to_id(content) ?? null);
  };
  // Tokenizers that read some added tokens as plain text, built on first use: the library splits
  // every added token out of the text before BPE and has no switch for one of them, so the
  // variant is the same tokenizer.json without those entries.
  const variants = new Map<string, Tokenizer>();
  const addedIds = new Set(addedTokensOf(tokenizerJson).map((t) => t.id));
  const tokenizerFor = (plainIds: readonly number[] | undefined): Tokenizer => {
    const dropped = [...new Set(plainIds ?? [])].filter((id) => addedIds.has(id)).sort((a, b) => a - b);
    if (dropped.length === 0) return tokenizer;
    const key = dropped.join(',');
    let variant = variants.get(key);
    if (!variant) {
      const kept = addedTokensOf(tokenizerJson).filter((t) => !dropped.includes(t.id));
      variant = new Tokenizer({ ...tokenizerJson, added_tokens: kept }, tokenizerConfig);
      variants.set(key, variant);
    }
    return variant;
  };
  return {
    encode: (text, options) =>
      text === ''
        ? []
        : tokenizerFor(options?.plainIds).encode(text, { add_special_tokens: options?.addSpecialTokens ?? false }).ids,
    bosId: idOf('bos_token'),
    padId: idOf('pad_token'),
  };
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${path}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${path} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Loads the tokenizer files of a model folder. */
export async function loadPrmTokenizer(modelDir: string): Promise<PrmTokenizer> {
  const [tokenizerJson, config] = await Promise.all([
    readJson(join(modelDir, 'tokenizer.json')),
    readJson(join(modelDir, 'tokenizer_config.json')),
  ]);
  if (typeof tokenizerJson !== 'object' || tokenizerJson === null) {
    throw new Error(`${join(modelDir, 'tokenizer.json')} does not hold a tokenizer object`);
  }
  const configObject = typeof config === 'object' && config !== null ? (config as Record<string, unknown>) : {};
  return createPrmTokenizer(tokenizerJson, configObject);
}
