/**
 * Writing the files a user asked for, without ever destroying one they gave as input: an output
 * that is an input (or another output) under any name — a symlink, a hard link, `./a` vs `a` — is
 * refused before anything is opened; outputs are written to a temporary sibling and renamed over
 * the target only when complete, so a failure leaves the old file as it was. One writer for the
 * CLI (`filter -o`, `--decisions`, `score -o`) and the editor's exports.
 */
import { unlinkSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** `node:fs/promises` and `node:crypto`, loaded when a file is first written: `report` writes none and starts without them. */
let promises: typeof import('node:fs/promises') | undefined;
const fsp = (): typeof import('node:fs/promises') => (promises ??= require('node:fs/promises') as typeof import('node:fs/promises'));
const randomHex = (bytes: number): string => (require('node:crypto') as typeof import('node:crypto')).randomBytes(bytes).toString('hex');

/** A file named on a command line or in a dialog, with the words that name it to the user. */
export interface NamedPath {
  /** E.g. `the input`, `-o`, `--decisions`. */
  label: string;
  path: string;
}

/** An output that would overwrite an input or another output. */
export class OutputAliasError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputAliasError';
  }
}

/** How many symlinks are followed before a chain is called a loop (Linux's own limit). */
const MAX_LINKS = 40;

/**
 * The file that writing `path` would replace: symlinks followed, even dangling ones, and the
 * folder's real path for a file that does not exist yet.
 */
export async function writeTarget(path: string): Promise<string> {
  let current = resolve(path);
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    const info = await fsp().lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!info) return join(await fsp().realpath(dirname(current)), basename(current));
    if (!info.isSymbolicLink()) return fsp().realpath(current);
    current = resolve(dirname(current), await fsp().readlink(current));
  }
  throw Object.assign(new Error(`too many symbolic links from ${path}`), { code: 'ELOOP', path });
}

interface Identity {
  target: string;
  /** `dev:ino` of the file when it exists (hard links share it). */
  inode: string | null;
}

async function identify(path: string): Promise<Identity> {
  const target = await writeTarget(path);
  const info = await fsp().stat(target).catch(() => null);
  return { target, inode: info ? `${info.dev}:${info.ino}` : null };
}

function isSame(a: Identity, b: Identity): boolean {
  return a.target === b.target || (a.inode !== null && a.inode === b.inode);
}

/**
 * Refuses (with an `OutputAliasError` naming both) any output that is one of the inputs or
 * another output: same real path, or same device and inode.
 */
export async function checkOutputs(inputs: readonly NamedPath[], outputs: readonly NamedPath[]): Promise<void> {
  const ins = await Promise.all(inputs.map(async (p) => ({ ...p, id: await identify(p.path) })));
  const outs = await Promise.all(outputs.map(async (p) => ({ ...p, id: await identify(p.path) })));
  for (const [i, out] of outs.entries()) {
    const input = ins.find((candidate) => isSame(candidate.id, out.id));
    if (input) {
      throw new OutputAliasError(`${out.label} ${out.path} is the same file as ${input.label} ${input.path}${via(out, input)}: the input is never overwritten; choose another output file`);
    }
    const other = outs.slice(0, i).find((candidate) => isSame(candidate.id, out.id));
    if (other) throw new OutputAliasError(`${out.label} ${out.path} is the same file as ${other.label} ${other.path}${via(out, other)}: each output needs its own file`);
  }
}

function via(a: { path: string; id: Identity }, b: { path: string; id: Identity }): string {
  if (resolve(a.path) === resolve(b.path)) return '';
  return a.id.target === b.id.target ? ` (through a symbolic link to ${a.id.target})` : ' (a hard link to it)';
}

/** A file being written next to its target, renamed over it only on `commit()`. */
export interface AtomicWriter {
  /** Bytes are copied, or written, before it resolves: the caller may reuse them after. Writes are in order. */
  write(data: string | Uint8Array): Promise<void>;
  /** Flush, sync and rename over the target. */
  commit(): Promise<void>;
  /** Remove the temporary file; the target is untouched. Safe after `commit()`. */
  abort(): Promise<void>;
}

/** Characters or bytes collected before a write. */
const BUFFER_SIZE = 1 << 20;

/**
 * Start writing `path` atomically: a temporary file in the target's folder, renamed over it on
 * commit (through a symlink, the file it points to is replaced and the link kept). A target that
 * is not a regular file (`/dev/stdout`, a pipe) cannot be replaced and is written directly.
 */
export async function openAtomicWriter(path: string): Promise<AtomicWriter> {
  const target = await writeTarget(path);
  const existing = await fsp().stat(target).catch(() => null);
  if (existing && !existing.isFile()) return directWriter(await fsp().open(target, 'w'));
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomHex(4)}.tmp`);
  const handle = await fsp().open(temp, 'wx');
  temporaryFiles.add(temp);
  const buffer = new WriteBuffer(handle);
  let isDone = false;
  return {
    write: (data) => buffer.write(data),
    async commit() {
      await buffer.flush();
      await handle.sync();
      await handle.close();
      isDone = true;
      // Keep the permissions of a file being replaced.
      if (existing) await fsp().chmod(temp, existing.mode & 0o7777);
      await fsp().rename(temp, target);
      temporaryFiles.delete(temp);
    },
    async abort() {
      if (!isDone) await handle.close().catch(() => undefined);
      isDone = true;
      await fsp().unlink(temp).catch(() => undefined);
      temporaryFiles.delete(temp);
    },
  };
}

/** Temporary files being written, until they are renamed over their targets or removed. */
const temporaryFiles = new Set<string>();

/**
 * Removes every temporary file still being written, at once (blocking): for a process about to
 * end on a signal (Ctrl-C), which would otherwise leave a hidden `.name.pid.tmp` beside the output.
 */
export function removeTemporaryFiles(): void {
  for (const temp of temporaryFiles) {
    try {
      unlinkSync(temp);
    } catch {
      // Already gone.
    }
  }
  temporaryFiles.clear();
}

function directWriter(handle: FileHandle): AtomicWriter {
  const buffer = new WriteBuffer(handle);
  let isClosed = false;
  const close = async (): Promise<void> => {
    if (isClosed) return;
    isClosed = true;
    await handle.close();
  };
  return {
    write: (data) => buffer.write(data),
    commit: async () => {
      await buffer.flush();
      await close();
    },
    abort: () => close().catch(() => undefined),
  };
}

/**
 * Collects small writes (text or bytes) into writes of at most 1 MB: each is encoded or copied
 * into one of two buffers, reused from write to write (no object per piece for the collector to
 * find). A full buffer is written while the next one fills: at most one write is in flight, and
 * the next waits for it (its failure is thrown there, or by `flush`).
 */
class WriteBuffer {
  private buffer: Buffer | null = null;
  /** The other buffer, once its write is done. */
  private spare: Buffer | null = null;
  private used = 0;
  private writing: Promise<void> | null = null;

  constructor(private readonly handle: FileHandle) {}

  async write(data: string | Uint8Array): Promise<void> {
    // The most bytes `data` can take: a UTF-16 code unit is at most 3 bytes of UTF-8.
    const most = typeof data === 'string' ? data.length * 3 : data.length;
    if (most > BUFFER_SIZE - this.used) {
      await this.send();
      if (most > BUFFER_SIZE) {
        // Written now, as it is, after what came before it: no copy of a large piece.
        await this.settle();
        return void (await this.handle.writeFile(data));
      }
    }
    const buffer = (this.buffer ??= this.spare ?? Buffer.allocUnsafe(BUFFER_SIZE));
    if (buffer === this.spare) this.spare = null;
    if (typeof data === 'string') this.used += buffer.write(data, this.used, 'utf8');
    else {
      buffer.set(data, this.used);
      this.used += data.length;
    }
  }

  /** Every byte written to the file. */
  async flush(): Promise<void> {
    await this.send();
    await this.settle();
  }

  /** Starts writing what was collected, once the write before it is done; the next pieces go to the other buffer. */
  private async send(): Promise<void> {
    if (this.used === 0 || this.buffer === null) return;
    await this.settle();
    const full = this.buffer;
    const used = this.used;
    this.buffer = null;
    this.used = 0;
    const writing = this.handle.writeFile(full.subarray(0, used)).then(() => {
      this.spare = full;
    });
    // Heard by `settle`; a write that fails while nothing waits on it must not end the process.
    writing.catch(() => undefined);
    this.writing = writing;
  }

  /** Waits for the write in flight; throws its failure. */
  private async settle(): Promise<void> {
    const writing = this.writing;
    this.writing = null;
    if (writing) await writing;
  }
}

/** Write `data` to `path` atomically. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const writer = await openAtomicWriter(path);
  try {
    await writer.write(data);
    await writer.commit();
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
