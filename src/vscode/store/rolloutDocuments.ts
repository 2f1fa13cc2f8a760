/**
 * Format sniffing: which documents may hold rollouts (by language and name), and whether one does
 * (its first 64 KB hold a record a format adapter recognises). Checked before any analysis, so a
 * `tsconfig.json` gets no analysis, no model, no marks.
 */
import * as vscode from 'vscode';
import { holdsRollouts, prefixEnd } from '../../core/formats/rolloutDetection';
import { readSettings } from '../settings';

/** Documents that may hold rollouts: JSON Lines and JSON files (whether they do is `holdsRolloutRecords`'s call). */
export function isRolloutDocument(document: vscode.TextDocument): boolean {
  if (document.uri.scheme !== 'file' && document.uri.scheme !== 'untitled') return false;
  return document.languageId === 'jsonl' || document.languageId === 'json' || /\.jsonl$/i.test(document.fileName);
}

/** Whether the document's first 64 KB hold a record a format adapter recognises (with the user's field mapping). */
export function holdsRolloutRecords(document: vscode.TextDocument): boolean {
  const eolLength = document.eol === vscode.EndOfLine.CRLF ? 2 : 1;
  const { line, character } = prefixEnd((i) => document.lineAt(i).text.length, document.lineCount, eolLength);
  const end = new vscode.Position(line, character);
  const prefix = document.getText(new vscode.Range(new vscode.Position(0, 0), end));
  const isWholeText = end.isEqual(document.lineAt(document.lineCount - 1).range.end);
  return holdsRollouts(prefix, { fileName: document.fileName, fields: readSettings(document.uri).prof.fields ?? {}, isWholeText });
}
