/**
 * Opening a file the user gave as input, and telling what it is. Only a regular file is read (a
 * character device such as `/dev/zero` never ends, a FIFO blocks until someone writes to it), and
 * what was opened can be checked again later: a command that reads its input twice (`filter`
 * decides, then copies the kept lines) reads both times through the one descriptor and compares
 * what it read, so a file renamed over or rewritten meanwhile is refused instead of mixing two
 * files' lines. Its first bytes say its kind: JSON Lines, a JSON document, parquet (TRL's
 * completions, read as rows), or a binary file (a `torch.save` `.pt`, Arrow, safetensors), which
 * is refused with one message saying what it is and how to convert it — never read as lines.
 */
import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { basename } from 'node:path';
import { BINARY_SNIFF_BYTES, binaryKindOf, binaryMessage } from '../../core/read/binaryFiles';

/** An input that is not a regular file, or that changed while it was being read. */
export class InputFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputFileError';
  }
}

/** A file PROF Lens does not read (a binary file), with the message that says why and what to do. */
export class UnreadableFileError extends InputFileError {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableFileError';
  }
}

/** What kind of file a non-regular one is, in words. */
export function fileKind(info: Pick<Stats, 'isDirectory' | 'isFIFO' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket' | 'isSymbolicLink'>): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** The refusal for a path that is not a regular file. */
export function notRegular(path: string, info: Stats): InputFileError {
  return new InputFileError(`${path} is ${fileKind(info)}, not a regular file: only rollout files are read`);
}

/** Throws `InputFileError` unless `path` (followed through symlinks) is a regular file. */
export function checkRegularFile(path: string): Stats {
  const info = statSync(path);
  if (!info.isFile()) throw notRegular(path, info);
  return info;
}

/** The kind of input file. */
export type InputKind = 'lines' | 'json' | 'parquet';

/** Which file, and which version of it: device, inode, size and modification time. */
export interface Identity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

function identityOf(info: Stats): Identity {
  return { dev: info.dev, ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
}

/** An input file opened once, refused unless it is a regular file. */
export class InputFile {
  readonly fd: number;
  private readonly opened: Identity;

  private constructor(readonly path: string, fd: number, info: Stats) {
    this.fd = fd;
    this.opened = identityOf(info);
  }

  /**
   * Opens `path` for reading. The type is checked before opening (opening a FIFO would block) and
   * again on the descriptor (the path may have been swapped in between).
   */
  static open(path: string): InputFile {
    checkRegularFile(path);
    const fd = openSync(path, 'r');
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) throw notRegular(path, info);
      return new InputFile(path, fd, info);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  get size(): number {
    return this.opened.size;
  }

  /** The file as it was when opened (device, inode, size, modification time). */
  get identity(): Identity {
    return { ...this.opened };
  }

  /** What differs between the file opened here and `earlier` (another opening of the path), in words; null when nothing does. */
  changedFrom(earlier: Identity): string | null {
    return changeOf(earlier, this.opened, this.opened);
  }

  /** `readSync` at `position` into `buffer`; returns the bytes read. */
  read(buffer: Uint8Array, offset: number, length: number, position: number): number {
    return readSync(this.fd, buffer, offset, length, position);
  }

  /**
   * What the file is, from its first bytes and its name; throws an `UnreadableFileError` for a
   * binary file, with the message that names it.
   */
  kind(): InputKind {
    const bytes = new Uint8Array(BINARY_SNIFF_BYTES);
    const head = bytes.subarray(0, this.read(bytes, 0, bytes.length, 0));
    if (String.fromCharCode(...head.subarray(0, 4)) === 'PAR1' || /\.parquet$/i.test(this.path)) return 'parquet';
    const binary = binaryKindOf(head, basename(this.path));
    if (binary !== null) throw new UnreadableFileError(binaryMessage(binary, this.path));
    return /\.json$/i.test(this.path) ? 'json' : 'lines';
  }

  /**
   * Throws unless the file is still the one opened, unchanged: the descriptor's size and time,
   * and the file now at the path (a file renamed over it is another inode).
   */
  checkUnchanged(): void {
    const now = identityOf(fstatSync(this.fd));
    const atPath = (() => {
      try {
        return identityOf(statSync(this.path));
      } catch {
        return null;
      }
    })();
    const what = changeOf(this.opened, now, atPath);
    if (what) throw new InputFileError(`${this.path} ${what} while it was being read: nothing was written; run again on a file that is not being written to`);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** The kind of the file at `path` (opened, looked at, closed); refused unless a regular file. */
export function inputKindOf(path: string): InputKind {
  const input = InputFile.open(path);
  try {
    return input.kind();
  } finally {
    input.close();
  }
}

function changeOf(opened: Identity, now: Identity, atPath: Identity | null): string | null {
  if (atPath === null) return 'was removed or renamed';
  if (atPath.dev !== opened.dev || atPath.ino !== opened.ino) return 'was replaced by another file';
  if (now.size !== opened.size) return `changed size (${opened.size.toLocaleString('en-US')} → ${now.size.toLocaleString('en-US')} bytes)`;
  if (now.mtimeMs !== opened.mtimeMs) return 'was modified';
  return null;
}
