/**
 * The vocabulary token ids are placed with: the `tokenizer.json` of the folder the user gives
 * (`profLens.inputs.tokenizerFolder`, `--tokenizer`), else that of the model the record names, in
 * the Hugging Face cache. Nothing is downloaded. Read as a small regular file, parsed once per path.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { byteVocabOf, type ByteVocab } from '../../core/tokens/byteVocab';
import { errorText } from '../../core/errorText';
import { readSideFile } from '../inputs/sideFiles';
import { hubCaches } from '../inputs/traceTokenizer';

/** The largest `tokenizer.json` read (Qwen2.5's is 7 MB). */
const MAX_TOKENIZER_BYTES = 64 * 1024 * 1024;

/** A vocabulary, or why there is none. */
export type VocabLookup = { vocab: ByteVocab; source: string } | { vocab: null; problem: string };

const loaded = new Map<string, VocabLookup>();

function load(path: string): VocabLookup {
  let found = loaded.get(path);
  if (!found) {
    try {
      const vocab = byteVocabOf(JSON.parse(readSideFile(path, MAX_TOKENIZER_BYTES)) as unknown);
      found = vocab ? { vocab, source: path } : { vocab: null, problem: `${path} is not a byte-level BPE tokenizer, whose tokens can be placed byte for byte` };
    } catch (error) {
      found = { vocab: null, problem: `${path} could not be read: ${errorText(error)}` };
    }
    loaded.set(path, found);
  }
  return found;
}

function cachedTokenizer(model: string): string | null {
  for (const cache of hubCaches({})) {
    const snapshots = join(cache, `models--${model.replace(/\//g, '--')}`, 'snapshots');
    let names: string[];
    try {
      names = readdirSync(snapshots).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(snapshots, name, 'tokenizer.json');
      if (statSync(path, { throwIfNoEntry: false })?.isFile()) return path;
    }
  }
  return null;
}

/** The vocabulary for a file at `filePath` (null: the editor's unsaved text) whose record names `model`. */
export function vocabFor(options: { tokenizerDir: string | null; filePath: string | null; model: string | null }): VocabLookup {
  const { tokenizerDir, filePath, model } = options;
  if (tokenizerDir) {
    const dir = isAbsolute(tokenizerDir) || !filePath ? tokenizerDir : join(dirname(filePath), tokenizerDir);
    return load(join(dir, 'tokenizer.json'));
  }
  const cached = model ? cachedTokenizer(model) : null;
  if (cached) return load(cached);
  const named = model ? `the tokenizer of ${model}, which the record names, is not in the Hugging Face cache` : 'the record names no model';
  return { vocab: null, problem: `it carries token ids and no tokenizer was found to decode them (${named}; set profLens.inputs.tokenizerFolder to a folder holding its tokenizer.json)` };
}
