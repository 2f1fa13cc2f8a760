/**
 * Per-file summaries of training runs, cached on disk so that a second look at a run reads only
 * the files that are new or changed. An entry is found by what summarised the file (settings,
 * scorer identity, the summarising code) and the file's path, and is used only while the file
 * still has the size and modification time it had when it was read. Entries are small JSON files
 * written atomically (temporary file, then rename), so parallel writers and a killed process never
 * leave a torn entry.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FileSummary } from '../../core/run/runSummary';
import { isFileSummary } from '../../core/run/summaryShape';

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

/** How entries are read and written: through the thread pool, or blocking. */
interface EntryFiles {
  read(path: string): Promise<string | null>;
  /** Writes atomically (a temporary file, then rename); a failure is not an error. */
  write(path: string, text: string): Promise<void>;
}

/** Off the calling thread (the editor): the folder is made once, again if it has gone since. */
function pooledFiles(folder: string): EntryFiles {
  let folderMade: Promise<unknown> | null = null;
  const makeFolder = (): Promise<unknown> => mkdir(folder, { recursive: true });
  return {
    read: (path) => readFile(path, 'utf8').catch(() => null),
    async write(path, text) {
      const temporary = temporaryPath(path);
      try {
        await (folderMade ??= makeFolder());
        await writeFile(temporary, text).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
          await makeFolder();
          await writeFile(temporary, text);
        });
        await rename(temporary, path);
      } catch {
        // A cache that cannot be written only costs time next run.
        await unlink(temporary).catch(() => undefined);
      }
    },
  };
}

/**
 * Blocking, for a command, which waits for its entries anyway: two hundred entries are read in a
 * few milliseconds so, against tens of milliseconds through the thread pool while workers start.
 */
function blockingFiles(folder: string): EntryFiles {
  let isFolderMade = false;
  return {
    read(path) {
      try {
        return Promise.resolve(readFileSync(path, 'utf8'));
      } catch {
        return Promise.resolve(null);
      }
    },
    write(path, text) {
      const temporary = temporaryPath(path);
      try {
        if (!isFolderMade) mkdirSync(folder, { recursive: true });
        isFolderMade = true;
        writeFileSync(temporary, text);
        renameSync(temporary, path);
      } catch {
        // A cache that cannot be written only costs time next run.
        isFolderMade = false;
        try {
          unlinkSync(temporary);
        } catch {
          // Nothing was written.
        }
      }
      return Promise.resolve();
    },
  };
}

/** An entry in every field, or null (not JSON, or not the shape written: `parts: [null]`, a count that is text …). */
function parseEntry(text: string): Entry | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const entry = value as Partial<Entry>;
  return typeof entry.version === 'number' && typeof entry.identity === 'string' && isFileSummary(entry.summary) ? (entry as Entry) : null;
}

function temporaryPath(path: string): string {
  return `${path}.${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * The cache of run summaries under `dir/trend`, for one identity (or one still being worked out,
 * such as a model folder's content hash: the cache waits for it). `blocking`: read and write
 * entries with blocking calls (a command line, never the editor).
 */
export function createSummaryCache(dir: string, identityOf: string | Promise<string>, options: { blocking?: boolean; onDamaged?: (entry: string, file: string) => void } = {}): SummaryCache {
  const folder = join(dir, 'trend');
  const files = options.blocking ? blockingFiles(folder) : pooledFiles(folder);
  const entryPath = async (file: string): Promise<string> => join(folder, `${createHash('sha256').update(await identityOf).update('\0').update(resolve(file)).digest('hex').slice(0, 40)}.json`);
  return {
    async get(file, stamp) {
      const identity = await identityOf;
      const path = await entryPath(file);
      const text = await files.read(path);
      if (text === null) return null;
      const entry = parseEntry(text);
      if (entry === null) {
        // A damaged entry is a miss, said once; the file is summarised again and the entry rewritten.
        options.onDamaged?.(path, file);
        return null;
      }
      const s = entry.summary;
      const isSame = entry.version === ENTRY_VERSION && entry.identity === identity && s.file === file && s.size === stamp.size && s.mtimeMs === stamp.mtimeMs;
      return isSame ? s : null;
    },
    async set(summary) {
      const entry: Entry = { version: ENTRY_VERSION, identity: await identityOf, summary };
      await files.write(await entryPath(summary.file), JSON.stringify(entry));
    },
  };
}
