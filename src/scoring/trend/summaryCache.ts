/**
 * Per-file summaries of training runs, cached on disk so that a second look at a run reads only
 * the files that are new or changed. An entry is found by what summarised the file (settings,
 * scorer identity, the summarising code) and the file's path, and is used only while the file
 * still has the size and modification time it had when it was read. Entries are small JSON files
 * written atomically (temporary file, then rename), so parallel writers and a killed process never
 * leave a torn entry.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FileSummary } from '../../core/run/runSummary';

/** Bumped when the shape or meaning of a summary changes. */
const ENTRY_VERSION = 1;

/** A file's size and modification time: an entry is valid only for exactly these. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

export interface SummaryCache {
  /** The cached summary of `file` when it was made from this very version of the file. */
  get(file: string, stamp: FileStamp): Promise<FileSummary | null>;
  set(summary: FileSummary): Promise<void>;
}

interface Entry {
  version: number;
  identity: string;
  summary: FileSummary;
}

/**
 * What a summary depends on besides the file: the settings, the scorer (its kind, model and
 * profile, as far as they are known), and the code that summarised (its bundle's size and mtime,
 * so a new release never reuses an older one's figures).
 */
export function summaryIdentity(parts: { settings: unknown; scorer: unknown; code: string }): string {
  return JSON.stringify({ settings: parts.settings, scorer: parts.scorer, code: parts.code });
}

/** The identity of a code file (the worker bundle): its path, size and mtime; the path alone when it cannot be read. */
export async function codeIdentity(path: string): Promise<string> {
  const info = await stat(path).catch(() => null);
  return info ? `${path}:${info.size}:${info.mtimeMs}` : path;
}

/**
 * The cache of run summaries under `dir/trend`, for one identity (or one still being worked out,
 * such as a model folder's content hash: the cache waits for it).
 */
export function createSummaryCache(dir: string, identityOf: string | Promise<string>): SummaryCache {
  const folder = join(dir, 'trend');
  const entryPath = async (file: string): Promise<string> => join(folder, `${createHash('sha256').update(await identityOf).update('\0').update(resolve(file)).digest('hex').slice(0, 40)}.json`);
  return {
    async get(file, stamp) {
      const identity = await identityOf;
      const text = await readFile(await entryPath(file), 'utf8').catch(() => null);
      if (text === null) return null;
      try {
        const entry = JSON.parse(text) as Entry;
        const s = entry.summary;
        const isSame = entry.version === ENTRY_VERSION && entry.identity === identity && s.file === file && s.size === stamp.size && s.mtimeMs === stamp.mtimeMs;
        return isSame && Array.isArray(s.parts) ? s : null;
      } catch {
        // A damaged entry is a miss; the file is summarised again and the entry rewritten.
        return null;
      }
    },
    async set(summary) {
      const path = await entryPath(summary.file);
      const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      const entry: Entry = { version: ENTRY_VERSION, identity: await identityOf, summary };
      try {
        await mkdir(folder, { recursive: true });
        await writeFile(temporary, JSON.stringify(entry));
        await rename(temporary, path);
      } catch {
        // A cache that cannot be written only costs time next run.
        await unlink(temporary).catch(() => undefined);
      }
    },
  };
}
