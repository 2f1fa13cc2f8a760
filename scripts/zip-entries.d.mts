/** Types of zip-entries.mjs, for the TypeScript tests that read VSIX files. */

/** One file in a zip archive. */
export interface ZipEntry {
  /** Path inside the archive. */
  name: string;
  /** Uncompressed bytes. */
  size: number;
  /** Bytes in the archive. */
  compressedSize: number;
  /** 0 stored, 8 deflated. */
  method: number;
  /** Where the entry's local header starts. */
  localOffset: number;
}

/** Every entry of a zip file, in central-directory order. */
export function listZipEntries(zipOrPath: string | Buffer): ZipEntry[];

/** The contents of one entry, or null when the archive has no entry of that name. */
export function readZipEntry(path: string, name: string): Buffer | null;
