/**
 * The tokenizer that turns open-instruct's saved traces (token ids only) back into text: the model
 * its `{run}_metadata.jsonl` names, found in a folder the user gives (`--tokenizer`, the
 * `profLens.inputs.tokenizerFolder` setting), in the model path itself when it is a local folder,
 * or in the Hugging Face cache (`$HF_HUB_CACHE`, `$HF_HOME/hub`, `~/.cache/huggingface/hub`).
 * Nothing is downloaded: when none is found, the message says exactly what to fetch and where.
 * A run folder is untrusted input: the metadata is read only as a small regular file, a folder it
 * names is used only inside the run's folder, and the tokenizer runs in a worker on a time budget
 * (traceDecoder.ts).
 */
import { readdir as readdirCallback, realpath as realpathCallback, stat as statCallback } from 'node:fs';
import { promisify } from 'node:util';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import type { AdaptContext } from '../../core/formats/trainers';
import { splitLines } from '../../core/read/jsonLines';
import { InputFile } from './inputFile';
import { readSideFile } from './sideFiles';
import { TraceDecoder } from './traceDecoder';
import { MAX_RUN_METADATA_BYTES } from './traceLimits';

// Through `node:fs` itself: every analysis looks here, and `node:fs/promises` (with what it loads) stays out of a command's start.
const readdir = promisify(readdirCallback);
const stat = promisify(statCallback);
const realpath = promisify(realpathCallback);

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

/** Characters of a text's first line looked at. */
const FIRST_LINE_CHARS = 1024 * 1024;

/** The first line of a text (1 MB of it at most): enough to tell a trace file. */
export function firstLineOf(text: string): string {
  // Cut first: the line's end is looked for in the part kept, never in a whole document.
  const first = splitLines(text.length > FIRST_LINE_CHARS ? text.slice(0, FIRST_LINE_CHARS) : text).next();
  return first.done ? '' : first.value.raw;
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
      // Only a small regular file: a FIFO named like metadata would hold the read for ever.
      const record = JSON.parse(firstLineOf(readSideFile(join(dir, name), MAX_RUN_METADATA_BYTES))) as { model_name?: unknown };
      if (typeof record.model_name === 'string' && record.model_name !== '') return { model: record.model_name, metadata: join(dir, name) };
    } catch {
      continue;
    }
  }
  return null;
}

/** Where a tokenizer was found, in words for messages. */
type Place = 'your tokenizer folder' | "the run's folder" | 'the Hugging Face cache';

/**
 * A folder's tokenizer files: `tokenizer.json` a regular file (followed through links) inside
 * `root` (null: anywhere, for the folder the user gave), or null.
 */
async function tokenizerFiles(dir: string, root: string | null): Promise<{ tokenizer: string; config: string | null } | null> {
  const tokenizer = await realFileUnder(join(dir, 'tokenizer.json'), root);
  if (!tokenizer) return null;
  return { tokenizer, config: await realFileUnder(join(dir, 'tokenizer_config.json'), root) };
}

/** The real path of `path` when it is a regular file inside `root` (links followed, on both sides); else null. */
async function realFileUnder(path: string, root: string | null): Promise<string | null> {
  try {
    const file = await realpath(path);
    const inside = root === null ? '' : relative(await realpath(root), file);
    if (inside.startsWith('..') || isAbsolute(inside)) return null;
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}

/** The Hugging Face hub cache folders, as huggingface_hub resolves them. */
export function hubCaches(lookup: TokenizerLookup): string[] {
  const env = lookup.env ?? process.env;
  const home = lookup.home ?? homedir();
  const dirs = [env.HF_HUB_CACHE, env.HUGGINGFACE_HUB_CACHE, env.HF_HOME ? join(env.HF_HOME, 'hub') : undefined, join(env.XDG_CACHE_HOME ?? join(home, '.cache'), 'huggingface', 'hub')];
  return [...new Set(dirs.filter((d): d is string => typeof d === 'string' && d !== ''))];
}

/** A model's snapshot in a hub cache whose tokenizer is a file of that model's cache folder (the `main` ref first). */
async function cachedSnapshot(cache: string, model: string): Promise<{ dir: string; files: { tokenizer: string; config: string | null } } | null> {
  const repo = join(cache, `models--${model.replace(/\//g, '--')}`);
  let main: string | null = null;
  try {
    main = readSideFile(join(repo, 'refs', 'main'), 4096).trim();
  } catch {
    // No `main` ref (or not a small file): the snapshots in name order.
  }
  const names = await readdir(join(repo, 'snapshots')).catch(() => [] as string[]);
  const ordered = main && names.includes(main) ? [main, ...names.filter((n) => n !== main).sort()] : names.sort();
  for (const name of ordered) {
    const files = await tokenizerFiles(join(repo, 'snapshots', name), repo);
    if (files) return { dir: join(repo, 'snapshots', name), files };
  }
  return null;
}

const loaded = new Map<string, TraceDecoder>();

function decoderAt(found: { dir: string; files: { tokenizer: string; config: string | null } }, model: string, place: Place): TraceDecoder {
  const key = `${found.files.tokenizer}\u0000${found.files.config ?? ''}`;
  let decoder = loaded.get(key);
  if (!decoder) {
    decoder = new TraceDecoder({ name: `${model} (from ${place}: ${found.dir})`, tokenizerPath: found.files.tokenizer, tokenizerConfigPath: found.files.config });
    loaded.set(key, decoder);
  }
  return decoder;
}

/**
 * What the records of `path` need from outside the file: for open-instruct traces, a decoder, or
 * the exact words of what is missing. Other files need nothing (no disk is read beyond a line).
 * A tokenizer is taken only from three places, said in its name: the folder the user gives, a
 * folder inside the run's own folder (the metadata's `model_name` may name any path; a run folder
 * is not trusted to point outside itself), or the model's folder in the Hugging Face cache.
 */
export async function adaptContextFor(path: string, lookup: TokenizerLookup = {}, line?: string): Promise<AdaptContext> {
  const first = line ?? (await firstLine(path).catch(() => ''));
  if (!looksLikeTokenTrace(first)) return {};
  const run = await runModel(path);
  const runDir = dirname(path);
  const given = lookup.tokenizerDir ? (isAbsolute(lookup.tokenizerDir) ? lookup.tokenizerDir : join(runDir, lookup.tokenizerDir)) : null;
  const givenFiles = given ? await tokenizerFiles(given, null) : null;
  if (given && givenFiles) return { decoder: decoderAt({ dir: given, files: givenFiles }, run?.model ?? basename(given), 'your tokenizer folder') };
  if (!run) return { decoderProblem: missingTokenizer(run, given, hubCaches(lookup)) };
  const local = isAbsolute(run.model) ? run.model : join(runDir, run.model);
  const localFiles = await tokenizerFiles(local, runDir);
  if (localFiles) return { decoder: decoderAt({ dir: local, files: localFiles }, run.model, "the run's folder") };
  for (const cache of hubCaches(lookup)) {
    const snapshot = await cachedSnapshot(cache, run.model);
    if (snapshot) return { decoder: decoderAt(snapshot, run.model, 'the Hugging Face cache') };
  }
  const outside = await stat(join(local, 'tokenizer.json')).then((s) => s.isFile(), () => false);
  return { decoderProblem: missingTokenizer(run, given, hubCaches(lookup), outside ? local : null) };
}

function missingTokenizer(run: { model: string; metadata: string } | null, given: string | null, caches: readonly string[], outside: string | null = null): string {
  const giveFolder = 'or give a folder that holds its tokenizer.json: --tokenizer <dir> on the command line, the profLens.inputs.tokenizerFolder setting in the editor';
  const notGiven = given ? `${given} has no tokenizer.json; ` : '';
  if (run && outside) {
    return `open-instruct traces hold token ids only; the run's metadata (${run.metadata}) names ${outside}, whose tokenizer.json is outside the run's folder, and a tokenizer is taken from outside it only when you give it: --tokenizer ${outside} on the command line, the profLens.inputs.tokenizerFolder setting in the editor`;
  }
  if (!run) return `open-instruct traces hold token ids only, and no *_metadata.jsonl beside this file names the model that wrote them: ${notGiven}give a folder that holds its tokenizer.json (--tokenizer <dir>, or the profLens.inputs.tokenizerFolder setting)`;
  const where = caches.map((c) => join(c, `models--${run.model.replace(/\//g, '--')}`)).join(', ');
  return `open-instruct traces hold token ids only; to read them PROF Lens needs the tokenizer of ${run.model} (named in ${run.metadata}), and found none: ${notGiven}not in ${where}. `
    + `Fetch it with \`huggingface-cli download ${run.model} tokenizer.json tokenizer_config.json\`, ${giveFolder}`;
}
