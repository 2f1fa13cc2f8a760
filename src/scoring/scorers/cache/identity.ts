/**
 * What makes two scoring runs "the same model" for the score cache, and where the cache lives. A
 * model is identified by what it is, never by what it is called: a model folder by a content hash
 * of its files (see `modelContentHash`), a served model by everything `/v1/models` says about it
 * plus a fingerprint from scoring a fixed probe.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ModelFacts } from '../endpoints/modelFacts';
import { modelContentHash, type ContentHashOptions } from './modelHash';

/** Identity of an exported model folder (`onnx` scorer): the hash of its files' contents. */
export async function modelDirIdentity(dir: string, options: ContentHashOptions = {}): Promise<string> {
  return `onnx:${(await modelContentHash(dir, options)).slice(0, 32)}`;
}

/** What a served model's identity is made of. */
export interface ServedIdentityInput {
  /** The scorer kind (and profile), e.g. `http-qwen-prm`, `critic`. */
  kind: string;
  facts: ModelFacts;
  /** What the model answered to the fixed probe, reduced to what is stable across runs. */
  fingerprint: string;
  /** The endpoints' base URLs: they count only when the server reports no `root`. */
  bases: readonly string[];
  /** Anything else its answers depend on (a critic's prompt version and max_tokens). */
  settings?: unknown;
}

/**
 * Identity of a served model (`http`, `critic`). vLLM reports the checkpoint it loaded as `root`;
 * hosted APIs report none, and there the hosts stand in for it, since two providers may serve
 * different weights under one name.
 */
export function servedModelIdentity(input: ServedIdentityInput): string {
  const { facts } = input;
  const hosts = facts.root === null ? [...new Set(input.bases.map((b) => (URL.canParse(b) ? new URL(b).origin : b)))].sort() : null;
  const parts = [facts.id, facts.root, facts.maxModelLen, facts.parent, facts.ownedBy, input.fingerprint, hosts, input.settings ?? null];
  // `node:crypto` loads with the first identity: a command that needs none starts without it.
  const hash = (require('node:crypto') as typeof import('node:crypto')).createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
  return `${input.kind}:${facts.id}#${hash}`;
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
