/**
 * What makes two scoring runs "the same model" for the score cache, and where the cache lives.
 * A model folder is identified by its path, its manifest's content and the size and mtime of its
 * weights and tokenizer files (hashing gigabytes of weights on every open would cost more than
 * the cache saves); an endpoint by its URL and served model name.
 */
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Files of a model folder whose change must invalidate cached scores. */
const MODEL_FILES = ['model.onnx', 'model.onnx_data', 'tokenizer.json', 'tokenizer_config.json'];
const MANIFEST = 'prof-lens.json';

/** Identity of an exported model folder (`onnx` scorer). */
export async function modelDirIdentity(dir: string): Promise<string> {
  const resolved = await realpath(dir).catch(() => dir);
  const hash = createHash('sha256');
  const manifest = await readFile(join(resolved, MANIFEST)).catch(() => null);
  hash.update(manifest ?? 'no-manifest');
  for (const name of MODEL_FILES) {
    const info = await stat(join(resolved, name)).catch(() => null);
    hash.update(`\0${name}:${info ? `${info.size}:${info.mtimeMs}` : 'absent'}`);
  }
  return `onnx:${resolved}#${hash.digest('hex').slice(0, 16)}`;
}

/** Identity of a served model (`http` scorer). */
export function endpointIdentity(url: string, modelName: string): string {
  return `http:${url.replace(/\/+$/, '')}#${modelName}`;
}

/**
 * Default cache folder: `$PROF_LENS_CACHE_DIR`, else `$XDG_CACHE_HOME/prof-lens`, else
 * `%LOCALAPPDATA%\prof-lens\cache` on Windows, else `~/.cache/prof-lens`.
 */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.PROF_LENS_CACHE_DIR) return env.PROF_LENS_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'prof-lens');
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'prof-lens', 'cache');
  return join(env.HOME || homedir(), '.cache', 'prof-lens');
}
