/**
 * Loads a panel's page into its webview: a fresh nonce on every load, the bundle and the
 * stylesheets as webview URIs under the extension, the strict CSP of panelHtml.
 */
import * as vscode from 'vscode';
import { createNonce, panelHtml } from './panelHtml';

export interface PageFiles {
  extensionUri: vscode.Uri;
  /** The script, as path segments under the extension, e.g. ['dist', 'webview.js']. */
  script: readonly string[];
  styles: readonly (readonly string[])[];
}

/** Sets the webview's HTML (which reloads it). */
export function loadPanelPage(panel: vscode.WebviewPanel, files: PageFiles): void {
  const webview = panel.webview;
  const asUri = (path: readonly string[]): string => webview.asWebviewUri(vscode.Uri.joinPath(files.extensionUri, ...path)).toString();
  webview.html = panelHtml({
    cspSource: webview.cspSource,
    nonce: createNonce(),
    scriptUri: asUri(files.script),
    styleUris: files.styles.map(asUri),
    title: panel.title,
  });
}
