/**
 * A test-only extension entry for the panel end-to-end tests while `src/extension.ts` does not
 * wire the panels yet: the editor side as it is, plus the panels with their own analysis store and
 * a "Show PROF Group" CodeLens. It wires the panels the way the extension is expected to.
 */
import * as vscode from 'vscode';
import { activate as activateEditor } from '../../../src/extension';
import { AnalysisClient } from '../../../src/vscode/analysisClient';
import { AnalysisStore } from '../../../src/vscode/analysisStore';
import { trackDocuments } from '../../../src/vscode/documentTracking';
import { ROLLOUT_SELECTOR } from '../../../src/vscode/hovers';
import { LiveSettings } from '../../../src/vscode/settings';
import { createPanelFeature, panelCommandIds } from '../../../src/vscode/panel/panelFeature';

class GroupLenses implements vscode.CodeLensProvider {
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changes.event;

  constructor(private readonly store: AnalysisStore) {
    store.onDidUpdate((update) => update.isFinal && this.changes.fire());
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const analysis = this.store.get(document.uri);
    if (!analysis?.summary) return [];
    const seen = new Set<number>();
    return analysis.index.all.filter((r) => !seen.has(r.line) && seen.add(r.line)).map((r) => new vscode.CodeLens(
      new vscode.Range(r.line - 1, 0, r.line - 1, 0),
      { title: 'Show PROF Group', command: panelCommandIds.showGroup, arguments: [{ source: document.uri.toString(), rolloutId: r.id }] },
    ));
  }
}

export function activate(context: vscode.ExtensionContext): void {
  activateEditor(context);
  const settings = new LiveSettings();
  const client = new AnalysisClient(context.asAbsolutePath('dist/analysisWorker.js'));
  const store = new AnalysisStore(client);
  context.subscriptions.push(
    settings, store, client, ...trackDocuments(store, settings),
    createPanelFeature({ extensionUri: context.extensionUri, store, client }),
    vscode.languages.registerCodeLensProvider(ROLLOUT_SELECTOR, new GroupLenses(store)),
  );
}

export function deactivate(): void {
  // Disposed through context.subscriptions.
}
