/**
 * Files whose editor tab opened before the editor handed their document to extensions (a few
 * seconds for a large file: the window reads it, builds its model, then sends the whole text to
 * the extension host). Such a file, unmodified on disk, can be analysed from disk meanwhile:
 * the analysis an unmodified document gets is a read of the same file. Whether it holds rollouts
 * is decided from its first 64 KB read from disk, as `holdsRolloutRecords` decides it from a document.
 */
import { open, stat } from 'node:fs/promises';
import { statSync } from 'node:fs';
import type * as vscode from 'vscode';
import { DETECTION_PREFIX_CHARS, holdsRollouts } from '../../core/formats/rolloutDetection';
import { readSettings } from '../settings';

/** The editor hands larger files to no extension: those open through Open Large Rollout File. */
const EDITOR_SYNC_LIMIT_BYTES = 50 * 1024 * 1024;

/** What identifies the bytes read: a file changed after the read is analysed again from its document. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
}

/** Names a document holding rollouts may have (the editor's language is not known before the document). */
export function mayHoldRollouts(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && /\.jsonl?$/i.test(uri.path);
}

/**
 * The file's stamp when its first 64 KB hold rollout records (with the user's field mapping) and
 * the editor will hand it to extensions; undefined otherwise, or when it cannot be read.
 */
export async function sniffFromDisk(uri: vscode.Uri): Promise<FileStamp | undefined> {
  try {
    const info = await stat(uri.fsPath);
    if (!info.isFile() || info.size > EDITOR_SYNC_LIMIT_BYTES) return undefined;
    // Up to 4 bytes a character: enough bytes for the prefix's characters.
    const wanted = Math.min(info.size, DETECTION_PREFIX_CHARS * 4);
    const handle = await open(uri.fsPath, 'r');
    try {
      const buffer = Buffer.alloc(wanted);
      const { bytesRead } = await handle.read(buffer, 0, wanted, 0);
      const prefix = new TextDecoder().decode(buffer.subarray(0, bytesRead));
      const isWholeText = bytesRead === info.size;
      const fields = readSettings(uri).prof.fields ?? {};
      return holdsRollouts(prefix, { fileName: uri.fsPath, fields, isWholeText }) ? { mtimeMs: info.mtimeMs, size: info.size } : undefined;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** True when the file on disk still has this stamp. */
export function isUnchanged(uri: vscode.Uri, stamp: FileStamp): boolean {
  try {
    const info = statSync(uri.fsPath);
    return info.mtimeMs === stamp.mtimeMs && info.size === stamp.size;
  } catch {
    return false;
  }
}
