/**
 * A document symbol provider for rollout files: groups → rollouts in the Outline, the breadcrumbs
 * and Go to Symbol. It answers from the analysis the store holds; while the first analysis of the
 * file still runs it waits for it (the editor asks as soon as the file opens).
 */
import * as vscode from 'vscode';
import type { AnalysisStore } from '../analysisStore';
import { outlineSymbols, type OutlineSymbol } from './outlineSymbols';
import { groupNamesOfSummary } from '../sidebar/sidebarModel';

/** How long a request waits for a running analysis before answering with nothing. */
const WAIT_MS = 30_000;

/** Serves the symbols of analysed rollout files. */
export class RolloutSymbolProvider implements vscode.DocumentSymbolProvider {
  constructor(private readonly store: AnalysisStore) {}

  async provideDocumentSymbols(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.DocumentSymbol[]> {
    if (!this.store.get(document.uri)?.summary && this.store.isTracked(document.uri)) await this.analysed(document.uri, token);
    const analysis = this.store.get(document.uri);
    if (!analysis?.summary || analysis.version !== document.version || token.isCancellationRequested) return [];
    return outlineSymbols(analysis.index.all, groupNamesOfSummary(analysis.summary)).map((symbol) => toSymbol(symbol, document));
  }

  /** Resolves when the document's analysis finishes (or is dropped), the request is cancelled, or after WAIT_MS. */
  private analysed(uri: vscode.Uri, token: vscode.CancellationToken): Promise<void> {
    return new Promise((resolve) => {
      const key = uri.toString();
      const done = (): void => {
        clearTimeout(timer);
        update.dispose();
        cancel.dispose();
        resolve();
      };
      const timer = setTimeout(done, WAIT_MS);
      const update = this.store.onDidUpdate((event) => event.isFinal && event.uri.toString() === key && done());
      const cancel = token.onCancellationRequested(done);
    });
  }
}

function toSymbol(symbol: OutlineSymbol, document: vscode.TextDocument): vscode.DocumentSymbol {
  const last = Math.min(symbol.lastLine, document.lineCount) - 1;
  const first = Math.min(symbol.firstLine - 1, last);
  const range = new vscode.Range(first, 0, last, document.lineAt(last).range.end.character);
  const selection = new vscode.Range(first, 0, first, 0);
  const kind = symbol.kind === 'group' ? vscode.SymbolKind.Namespace : vscode.SymbolKind.Object;
  const result = new vscode.DocumentSymbol(symbol.name, symbol.detail, kind, range, selection);
  result.children = symbol.children.map((child) => toSymbol(child, document));
  return result;
}
