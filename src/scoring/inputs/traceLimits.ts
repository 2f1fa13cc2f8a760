/**
 * The limits on what a token-id trace file brings in from around it: the tokenizer's files and
 * the run's metadata are read only up to these sizes, and one line's token ids may decode to at
 * most so many characters (a tokenizer whose tokens are long strings would otherwise turn a 40 KB
 * file into gigabytes of text).
 */

/** `tokenizer.json`: the largest in common use are about 35 MB (Gemma's 256k-token vocabulary). */
export const MAX_TOKENIZER_BYTES = 64 * 1024 * 1024;
/** `tokenizer_config.json`: a chat template and the special tokens, a few hundred KB at most. */
export const MAX_TOKENIZER_CONFIG_BYTES = 4 * 1024 * 1024;
/** A run's `*_metadata.jsonl`: one short record (run name, commit, model, time). */
export const MAX_RUN_METADATA_BYTES = 1024 * 1024;
/** Characters one list of token ids may decode to: about 1M tokens of ordinary text, far past any context window. */
export const MAX_DECODED_CHARS = 4 * 1024 * 1024;
