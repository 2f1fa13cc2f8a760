/**
 * A content hash of a model folder's files, computed once and remembered by each file's path,
 * size, mtime, ctime and inode, so that opening the same model again costs a few `stat` calls
 * while a re-export copied over it (even with `cp -p` or rsync, which keep size and mtime) is
 * hashed afresh: copying in a file always gives it a new ctime.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';

/** `node:fs/promises` and `node:crypto`, loaded on first use: a command that hashes no model starts without them. */
let promises: typeof import('node:fs/promises') | undefined;
const fsp = (): typeof import('node:fs/promises') => (promises ??= require('node:fs/promises') as typeof import('node:fs/promises'));
const crypto = (): typeof import('node:crypto') => require('node:crypto') as typeof import('node:crypto');

/** The files whose content makes the model: weights, tokenizer, and the manifest naming the profile. */
export const MODEL_FILES = ['model.onnx', 'model.onnx_data', 'tokenizer.json', 'tokenizer_config.json', 'prof-lens.json'];
/** Versioned, so a change of what is hashed starts afresh. */
export const MODEL_HASHES_FILE = 'model-hashes.v1.json';

/** Where hashes are remembered, and a hook for tests to see which files were read. */
export interface ContentHashOptions {
  /** Folder of the remembered hashes (the score cache's); null or absent → remembered in this process only. */
  rememberIn?: string | null;
  onHashFile?: (path: string) => void;
}

interface Remembered {
  signature: string;
  hash: string;
}

/** This process's memory of hashes, by folder. */
const memory = new Map<string, Remembered>();

/** The sha256 (hex) of a model folder's files, reusing a remembered one when no file changed. */
export async function modelContentHash(dir: string, options: ContentHashOptions = {}): Promise<string> {
  const resolved = await fsp().realpath(dir).catch(() => dir);
  const signature = await signatureOf(resolved);
  const known = memory.get(resolved) ?? (await readRemembered(options.rememberIn))[resolved];
  if (known?.signature === signature && typeof known.hash === 'string' && /^[0-9a-f]{64}$/.test(known.hash)) {
    memory.set(resolved, known);
    return known.hash;
  }
  const hash = await hashFiles(resolved, options.onHashFile);
  const entry = { signature, hash };
  memory.set(resolved, entry);
  await remember(options.rememberIn, resolved, entry).catch(() => undefined);
  return hash;
}

/** Forgets this process's memory (tests). */
export function forgetModelHashes(): void {
  memory.clear();
}

async function signatureOf(dir: string): Promise<string> {
  const parts = await Promise.all(MODEL_FILES.map(async (name) => {
    const info = await fsp().stat(join(dir, name), { bigint: true }).catch(() => null);
    return info ? [name, String(info.size), String(info.mtimeNs), String(info.ctimeNs), String(info.ino)] : [name, 'absent'];
  }));
  return JSON.stringify(parts);
}

async function hashFiles(dir: string, onHashFile?: (path: string) => void): Promise<string> {
  const hash = crypto().createHash('sha256');
  for (const name of MODEL_FILES) {
    const path = join(dir, name);
    hash.update(`\0${name}\0`);
    const info = await fsp().stat(path).catch(() => null);
    if (!info?.isFile()) {
      hash.update('absent');
      continue;
    }
    onHashFile?.(path);
    // Streamed: model.onnx_data can be many gigabytes.
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

async function readRemembered(folder: string | null | undefined): Promise<Record<string, Remembered>> {
  if (!folder) return {};
  try {
    const parsed: unknown = JSON.parse(await fsp().readFile(join(folder, MODEL_HASHES_FILE), 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, Remembered>) : {};
  } catch {
    return {};
  }
}

async function remember(folder: string | null | undefined, dir: string, entry: Remembered): Promise<void> {
  if (!folder) return;
  const all = { ...(await readRemembered(folder)), [dir]: entry };
  await fsp().mkdir(folder, { recursive: true });
  const file = join(folder, MODEL_HASHES_FILE);
  const temp = `${file}.${process.pid}.${crypto().randomBytes(4).toString('hex')}.tmp`;
  try {
    await fsp().writeFile(temp, `${JSON.stringify(all)}\n`, 'utf8');
    await fsp().rename(temp, file);
  } catch (error) {
    await fsp().unlink(temp).catch(() => undefined);
    throw error;
  }
}
