/**
 * Keeps analyses in step with the editor: analyse rollout files when opened and after edits
 * (debounced), forget them when closed, redo them all when a setting analyses are made with
 * changes (`reanalysisSettingIds`).
 */
import * as vscode from 'vscode';
import { isRolloutDocument, type AnalysisStore } from './analysisStore';
import type { LiveSettings } from './settings';

/** Subscribes to document events; the returned disposables belong to the caller. */
export function trackDocuments(store: AnalysisStore, settings: LiveSettings): vscode.Disposable[] {
  // After activation's turn, not inside it: the first analysis (reading the prefix, posting the
  // request) then runs as its own short task instead of lengthening activation's block.
  const initial = setTimeout(() => {
    for (const document of vscode.workspace.textDocuments) {
      // One opened in between is already being analysed: starting again would cancel that.
      if (!store.isTracked(document.uri)) store.analyseDocument(document);
    }
    // Tabs whose documents the editor has not handed over yet (a large file takes seconds).
    for (const uri of tabUris(vscode.window.tabGroups.all.flatMap((g) => g.tabs))) void store.analyseOpening(uri);
  }, 0);
  return [
    new vscode.Disposable(() => clearTimeout(initial)),
    vscode.workspace.onDidOpenTextDocument((document) => store.analyseDocument(document)),
    // A tab opens seconds before a large file's document arrives: its analysis starts from disk now.
    vscode.window.tabGroups.onDidChangeTabs((event) => {
      for (const uri of tabUris(event.opened)) void store.analyseOpening(uri);
      const shown = new Set(tabUris(vscode.window.tabGroups.all.flatMap((g) => g.tabs)).map(String));
      for (const uri of tabUris(event.closed)) {
        if (!shown.has(uri.toString()) && !vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) store.forgetOpening(uri);
      }
    }),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.contentChanges.length === 0 || !isRolloutDocument(event.document)) return;
      store.schedule(event.document, settings.current.debounceMs);
    }),
    vscode.workspace.onDidCloseTextDocument((document) => {
      if (store.get(document.uri)?.version !== -1) store.forget(document.uri);
    }),
    settings.onDidChangeAnalysis(() => {
      for (const document of vscode.workspace.textDocuments) {
        if (isRolloutDocument(document)) store.schedule(document, 50);
      }
    }),
  ];
}

/** The files shown by text-editor tabs. */
function tabUris(tabs: readonly vscode.Tab[]): vscode.Uri[] {
  return tabs.flatMap((tab) => (tab.input instanceof vscode.TabInputText ? [tab.input.uri] : []));
}
