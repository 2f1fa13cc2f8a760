/**
 * Visible-range priority: the lines around what the user sees of a document, whose rollouts the
 * analysis worker sends first.
 */
import * as vscode from 'vscode';

/** Lines beyond the visible ones whose rollouts are also sent first. */
const PRIORITY_MARGIN = 200;

/** Lines around what the user sees of a document (1-based); the top of the file before it is shown. */
export function priorityLines(uri: vscode.Uri): { from: number; to: number } {
  const key = uri.toString();
  const ranges = vscode.window.visibleTextEditors.filter((e) => e.document.uri.toString() === key).flatMap((e) => e.visibleRanges);
  if (ranges.length === 0) return { from: 1, to: PRIORITY_MARGIN * 2 };
  const from = Math.min(...ranges.map((r) => r.start.line)) + 1;
  const to = Math.max(...ranges.map((r) => r.end.line)) + 1;
  return { from: Math.max(1, from - PRIORITY_MARGIN), to: to + PRIORITY_MARGIN };
}
