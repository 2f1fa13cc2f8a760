/**
 * Reading a whole small file the user (or a workspace) put beside the data: a labels file, the
 * calibrations cache. Only a regular file is read, and only up to a size: a FIFO would block the
 * reader for ever (and the editor's labels with it), a link to `/dev/zero` never ends. The path is
 * opened without blocking (`O_NONBLOCK`: opening a FIFO does not wait for a writer) and the
 * descriptor itself is checked, so a file swapped for a FIFO after a check is refused too.
 * Asynchronous, so the extension host's thread never waits on the disk.
 */
import { close, constants, fstat, open, read, type Stats } from 'node:fs';
import { fileKind } from './inputFile';

/** A file that is not a regular file, or is larger than its reader takes. */
export class SmallFileError extends Error {
  constructor(message: string, readonly why: 'not-regular' | 'too-large') {
    super(message);
    this.name = 'SmallFileError';
  }
}

const call = <T>(run: (done: (error: NodeJS.ErrnoException | null, value: T) => void) => void): Promise<T> =>
  new Promise<T>((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value))));

function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toLocaleString('en-US', { maximumFractionDigits: bytes < 1048576 ? 2 : 0 })} MB`;
}

/**
 * The text of `path` (UTF-8), refused with a `SmallFileError` naming it unless it is a regular
 * file of at most `maxBytes`; what it is (`what`, e.g. "a labels file") is said in the message.
 * Errors of the file system itself (missing, no permission) are thrown as they are.
 */
export async function readSmallFile(path: string, maxBytes: number, what: string): Promise<string> {
  const fd = await call<number>((done) => open(path, constants.O_RDONLY | constants.O_NONBLOCK, done));
  try {
    const info = await call<Stats>((done) => fstat(fd, done));
    if (!info.isFile()) throw new SmallFileError(`${path} is ${fileKind(info)}, not a regular file: ${what} is only read from a regular file`, 'not-regular');
    if (info.size > maxBytes) throw new SmallFileError(`${path} is ${megabytes(info.size)}; ${what} above ${megabytes(maxBytes)} is not read`, 'too-large');
    // One byte more than allowed: a file that grew since fstat is still refused, never read without end.
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, info.size + 1));
    let length = 0;
    for (;;) {
      const got = await call<number>((done) => read(fd, buffer, length, buffer.length - length, length, done));
      if (got === 0) break;
      length += got;
      if (length > maxBytes) throw new SmallFileError(`${path} grew past ${megabytes(maxBytes)} while it was being read; ${what} above that is not read`, 'too-large');
      if (length === buffer.length) break;
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await call<void>((done) => close(fd, (error) => done(error, undefined))).catch(() => undefined);
  }
}
