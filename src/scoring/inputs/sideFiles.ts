/**
 * Small files found beside an input (a run's `*_metadata.jsonl`, a tokenizer's `tokenizer.json`
 * and `tokenizer_config.json`): read only when they are regular files of bounded size. The file is
 * opened without blocking (a FIFO put in a file's place would otherwise hold the read for ever)
 * and its type and size are checked on the descriptor, so a path swapped after a look is still
 * refused; a symbolic link to `/dev/zero` is a character device and refused the same way.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { fileKind } from './inputFile';

/** A side file that is not read, and why. */
export class SideFileError extends Error {
  override readonly name = 'SideFileError';
}

/** `bytes` in words: `1.5 MB`, `512 KB`. */
export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * The text of `path` when it is a regular file of at most `maxBytes`; a `SideFileError` naming it
 * and what it is otherwise (missing files throw the system's error, ENOENT).
 */
export function readSideFile(path: string, maxBytes: number): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new SideFileError(`${path} is ${fileKind(info)}, not a regular file: it is not read`);
    if (info.size > maxBytes) throw new SideFileError(`${path} is ${sizeText(info.size)}, over the ${sizeText(maxBytes)} a file of its kind may be: it is not read`);
    const bytes = Buffer.allocUnsafe(info.size);
    let done = 0;
    while (done < bytes.length) {
      const read = readSync(fd, bytes, done, bytes.length - done, done);
      if (read === 0) break;
      done += read;
    }
    return bytes.toString('utf8', 0, done);
  } finally {
    closeSync(fd);
  }
}
