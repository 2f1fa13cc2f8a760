/**
 * Restart recovery: a new analysis worker holds no analyses, so when the old one died or was
 * replaced, the documents whose analyses it held (and that are not running: those the client
 * retries itself) are analysed again, so the Rollout View and the panels can still ask about them.
 */
import * as vscode from 'vscode';

/** What recovery needs to know of one document's entry. */
export interface RecoverableEntry {
  isRunning: boolean;
  /** The analysed document's URI and version (-1: a file read from disk), or null before the first result. */
  analysed: { uri: vscode.Uri; version: number } | null;
}

export interface Reanalyse {
  document(document: vscode.TextDocument): void;
  file(uri: vscode.Uri): void;
}

/** Analyses again every idle document of `entries`: an open one from the editor, a large file from disk. */
export function recoverAfterRestart(entries: Iterable<[string, RecoverableEntry]>, reanalyse: Reanalyse): void {
  for (const [key, entry] of entries) {
    if (entry.isRunning || !entry.analysed) continue;
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    if (document) reanalyse.document(document);
    else if (entry.analysed.version === -1) reanalyse.file(entry.analysed.uri);
  }
}
