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
   */
  encode(text: string, options?: { addSpecialTokens?: boolean }): number[];
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

/** Wraps parsed `tokenizer.json` and `tokenizer_config.json` objects. */
export function createPrmTokenizer(tokenizerJson: object, tokenizerConfig: Record<string, unknown>): PrmTokenizer {
  const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  const idOf = (key: string): number | null => {
    const content = tokenContent(tokenizerConfig[key]);
    return content === null ? null : (tokenizer.token_to_id(content) ?? null);
  };
  return {
    encode: (text, options) =>
      text === '' ? [] : tokenizer.encode(text, { add_special_tokens: options?.addSpecialTokens ?? false }).ids,
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
