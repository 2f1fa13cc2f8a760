// Reads the file list (and single files) of a zip such as a VSIX from its central directory, so
// the packaging step and its tests can check what a VSIX holds without an `unzip` binary.
// Covers what vsce writes: no ZIP64, stored or deflated entries.
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/**
 * @typedef {object} ZipEntry
 * @property {string} name path inside the archive
 * @property {number} size uncompressed bytes
 * @property {number} compressedSize bytes in the archive
 * @property {number} method 0 stored, 8 deflated
 * @property {number} localOffset where the entry's local header starts
 */

function endOfDirectory(zip) {
  // The end record is at least 22 bytes and may be followed by a comment of up to 64 KiB.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw new Error('not a zip file: no end-of-central-directory record');
}

/**
 * Every entry of a zip file, in central-directory order.
 * @param {string | Buffer} zipOrPath
 * @returns {ZipEntry[]}
 */
export function listZipEntries(zipOrPath) {
  const zip = typeof zipOrPath === 'string' ? readFileSync(zipOrPath) : zipOrPath;
  const end = endOfDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (at === 0xffffffff) throw new Error('ZIP64 archives are not supported');
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new Error(`bad central directory entry ${i}`);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localOffset: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The contents of one entry, or null when the archive has no entry of that name.
 * @param {string} path
 * @param {string} name
 * @returns {Buffer | null}
 */
export function readZipEntry(path, name) {
  const zip = readFileSync(path);
  const entry = listZipEntries(zip).find((e) => e.name === name);
  if (!entry) return null;
  const at = entry.localOffset;
  if (zip.readUInt32LE(at) !== LOCAL_HEADER) throw new Error(`bad local header for ${name}`);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return Buffer.from(data);
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`${name}: unsupported compression method ${entry.method}`);
}
