/**
 * Which bytes an analysis read, so that a command that reads its input again (`score` as it
 * writes, the Explorer's export) can tell it is still that file: its identity when it was opened
 * (device, inode, size, modification time) and a SHA-256 of every byte read, the hash `filter`
 * compares between its two reads. A same-size rewrite that keeps the modification time still
 * changes the hash.
 */
import { createHash, type Hash } from 'node:crypto';
import { read as readCallback } from 'node:fs';
import { promisify } from 'node:util';
import { InputFileError, type Identity, type InputFile } from './inputFile';

const read = promisify(readCallback);

/** The file an analysis read, and the hash of what it read. */
export interface AnalysedFile {
  path: string;
  identity: Identity;
  sha256: string;
}

/** Hashes the chunks a reader hears (`onChunk`), in order. */
export class ReadHash {
  private readonly hash: Hash = createHash('sha256');
  readonly onChunk = (bytes: Uint8Array): void => {
    this.hash.update(bytes);
  };

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** SHA-256 of the whole file, read through its descriptor a megabyte at a time (never blocking for longer). */
export async function hashWhole(input: InputFile): Promise<string> {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(1 << 20);
  for (let at = 0; ;) {
    const { bytesRead } = await read(input.fd, chunk, 0, chunk.length, at);
    if (bytesRead === 0) return hash.digest('hex');
    hash.update(chunk.subarray(0, bytesRead));
    at += bytesRead;
  }
}

/**
 * Refuses (`InputFileError`) unless `input` is the file analysed: the same file at the path, its
 * size and time unchanged, and, when `readNow` is given (the hash of the bytes read this time),
 * the same bytes. `doing` says what was stopped ("nothing was exported").
 */
export function checkAnalysed(input: InputFile, analysed: AnalysedFile, doing: string, readNow?: string): void {
  const change = input.changedFrom(analysed.identity);
  if (change) throw new InputFileError(`${input.path} ${change} since it was analysed: ${doing} (analyse the file again first)`);
  input.checkUnchanged();
  if (readNow !== undefined && readNow !== analysed.sha256) {
    throw new InputFileError(`${input.path} changed since it was analysed (its bytes are not the ones analysed, though its size and time are): ${doing} (analyse the file again first)`);
  }
}
