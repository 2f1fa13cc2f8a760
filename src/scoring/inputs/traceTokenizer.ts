/**
 * The tokenizer that turns open-instruct's saved traces (token ids only) back into text: the model
 * its `{run}_metadata.jsonl` names, found in a folder the user gives (`--tokenizer`, the
 * `profLens.inputs.tokenizerFolder` setting), in the model path itself when it is a local folder,
 * or in the Hugging Face cache (`$HF_HUB_CACHE`, `$HF_HOME/hub`, `~/.cache/huggingface/hub`).
 * Nothing is downloaded: when none is found, the message says exactly what to fetch and where.
 */
import { readdir as readdirCallback, readFile as readFileCallback, stat as statCallback } from 'node:fs';
import { promisify } from 'node:util';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { AdaptContext, TokenDecoder } from '../../core/formatsTrainers';
import { InputFile } from './inputFile';

// Through `node:fs` itself: every analysis looks here, and `node:fs/promises` (with what it loads) stays out of a command's start.
const readdir = promisify(readdirCallback);
const readFile = promisify(readFileCallback);
const stat = promisify(statCallback);

/** Where to look, beside the metadata. */
export interface TokenizerLookup {
  /** A folder with `tokenizer.json` the user named; it wins over everything else. */
  tokenizerDir?: string | null;
  env?: Readonly<Record<string, string | undefined>>;
  home?: string;
}

/**
 * Enough of the first line to tell an open-instruct trace file: 64 KB, or up to 1 MB when the
 * first 64 KB name `prompt_tokens` but not yet `response_tokens` (a long prompt). Every file of a
 * run is asked, so the usual answer reads 64 KB.
 */
async function firstLine(path: string): Promise<string> {
  // Only a regular file is opened (a FIFO would block), as every input is.
  const input = InputFile.open(path);
  try {
    const read = (size: number): string => {
      const bytes = Buffer.alloc(size);
      return firstLineOf(bytes.subarray(0, input.read(bytes, 0, size, 0)).toString('utf8'));
    };
    const head = read(64 * 1024);
    return head.includes('"prompt_tokens"') && !head.includes('"response_tokens"') ? read(1024 * 1024) : head;
  } finally {
    input.close();
  }
}

/** The first line of a text (1 MB of it at most): enough to tell a trace file. */
export function firstLineOf(text: string): string {
  const end = text.indexOf('\n');
  return text.slice(0, Math.min(end === -1 ? text.length : end, 1024 * 1024));
}

/** Whether a record's text is an open-instruct trace (token ids, no text). */
export function looksLikeTokenTrace(line: string): boolean {
  return line.includes('"prompt_tokens"') && line.includes('"response_tokens"');
}

/** The model the run's metadata names, and that file; null when there is no metadata beside `path`. */
async function runModel(path: string): Promise<{ model: string; metadata: string } | null> {
  const dir = dirname(path);
  const run = basename(path).replace(/_rollouts_\d+\.jsonl$/i, '');
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('_metadata.jsonl'));
  } catch {
    return null;
  }
  const ordered = [...names.filter((n) => n === `${run}_metadata.jsonl`), ...names.filter((n) => n !== `${run}_metadata.jsonl`).sort()];
  for (const name of ordered) {
    try {
      const record = JSON.parse((await readFile(join(dir, name), 'utf8')).split('\n')[0] ?? '') as { model_name?: unknown };
      if (typeof record.model_name === 'string' && record.model_name !== '') return { model: record.model_name, metadata: join(dir, name) };
    } catch {
      continue;
    }
  }
  return null;
}

async function hasTokenizer(dir: string): Promise<boolean> {
  return stat(join(dir, 'tokenizer.json')).then((s) => s.isFile(), () => false);
}

/** The Hugging Face hub cache folders, as huggingface_hub resolves them. */
export function hubCaches(lookup: TokenizerLookup): string[] {
  const env = lookup.env ?? process.env;
  const home = lookup.home ?? homedir();
  const dirs = [env.HF_HUB_CACHE, env.HUGGINGFACE_HUB_CACHE, env.HF_HOME ? join(env.HF_HOME, 'hub') : undefined, join(env.XDG_CACHE_HOME ?? join(home, '.cache'), 'huggingface', 'hub')];
  return [...new Set(dirs.filter((d): d is string => typeof d === 'string' && d !== ''))];
}

/** A model's snapshot folder in a hub cache that holds its tokenizer (the `main` ref first). */
async function cachedSnapshot(cache: string, model: string): Promise<string | null> {
  const repo = join(cache, `models--${model.replace(/\//g, '--')}`);
  const main = await readFile(join(repo, 'refs', 'main'), 'utf8').then((t) => t.trim(), () => null);
  if (main && (await hasTokenizer(join(repo, 'snapshots', main)))) return join(repo, 'snapshots', main);
  const snapshots = await readdir(join(repo, 'snapshots')).catch(() => [] as string[]);
  for (const s of snapshots.sort()) if (await hasTokenizer(join(repo, 'snapshots', s))) return join(repo, 'snapshots', s);
  return null;
}

const loaded = new Map<string, Promise<TokenDecoder>>();

async function loadDecoder(dir: string, name: string): Promise<TokenDecoder> {
  const json = JSON.parse(await readFile(join(dir, 'tokenizer.json'), 'utf8')) as object;
  const config = await readFile(join(dir, 'tokenizer_config.json'), 'utf8').then((t) => JSON.parse(t) as Record<string, unknown>, () => ({}));
  // Loaded here, for the one kind of file that needs it: every other command starts without it.
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const tokenizer = new Tokenizer(json, config);
  // Special tokens are kept: the chat template's tags tell the transcript reader where turns are.
  return { name: `${name} (${dir})`, decode: (ids) => tokenizer.decode([...ids], { skip_special_tokens: false }) };
}

function decoderAt(dir: string, name: string): Promise<TokenDecoder> {
  let decoder = loaded.get(dir);
  if (!decoder) {
    decoder = loadDecoder(dir, name);
    loaded.set(dir, decoder);
    decoder.catch(() => loaded.delete(dir));
  }
  return decoder;
}

/**
 * What the records of `path` need from outside the file: for open-instruct traces, a decoder, or
 * the exact words of what is missing. Other files need nothing (no disk is read beyond a line).
 */
export async function adaptContextFor(path: string, lookup: TokenizerLookup = {}, line?: string): Promise<AdaptContext> {
  const first = line ?? (await firstLine(path).catch(() => ''));
  if (!looksLikeTokenTrace(first)) return {};
  const run = await runModel(path);
  const given = lookup.tokenizerDir ? (isAbsolute(lookup.tokenizerDir) ? lookup.tokenizerDir : join(dirname(path), lookup.tokenizerDir)) : null;
  try {
    if (given && (await hasTokenizer(given))) return { decoder: await decoderAt(given, run?.model ?? basename(given)) };
    if (run) {
      const local = isAbsolute(run.model) ? run.model : join(dirname(path), run.model);
      if (await hasTokenizer(local)) return { decoder: await decoderAt(local, run.model) };
      for (const cache of hubCaches(lookup)) {
        const snapshot = await cachedSnapshot(cache, run.model);
        if (snapshot) return { decoder: await decoderAt(snapshot, run.model) };
      }
    }
  } catch (error) {
    return { decoderProblem: `open-instruct traces hold token ids only, and the tokenizer found for them could not be loaded: ${(error as Error).message}` };
  }
  return { decoderProblem: missingTokenizer(run, given, hubCaches(lookup)) };
}

function missingTokenizer(run: { model: string; metadata: string } | null, given: string | null, caches: readonly string[]): string {
  const giveFolder = 'or give a folder that holds its tokenizer.json: --tokenizer <dir> on the command line, the profLens.inputs.tokenizerFolder setting in the editor';
  const notGiven = given ? `${given} has no tokenizer.json; ` : '';
  if (!run) return `open-instruct traces hold token ids only, and no *_metadata.jsonl beside this file names the model that wrote them: ${notGiven}give a folder that holds its tokenizer.json (--tokenizer <dir>, or the profLens.inputs.tokenizerFolder setting)`;
  const where = caches.map((c) => join(c, `models--${run.model.replace(/\//g, '--')}`)).join(', ');
  return `open-instruct traces hold token ids only; to read them PROF Lens needs the tokenizer of ${run.model} (named in ${run.metadata}), and found none: ${notGiven}not in ${where}. `
    + `Fetch it with \`huggingface-cli download ${run.model} tokenizer.json tokenizer_config.json\`, ${giveFolder}`;
}
