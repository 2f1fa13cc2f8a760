/**
 * The one webview panel host every PROF Lens panel runs in (the group view, the file dashboard and
 * the parquet editor's dashboard, the Run Dashboard, the Rollout Explorer, the Compare view). It
 * owns the lifecycle a panel shares with every other: the webview's options (scripts on, nothing
 * reachable but the extension's media, dist and KaTeX), the page with a fresh nonce on every load
 * and the strict CSP, the icon, the `ready` handshake, messages checked by the protocol's guard,
 * requests answered exactly once, restoring after a reload (serializer), and disposal.
 * A panel is a `PanelDeclaration` plus what it does with its messages.
 */
import * as vscode from 'vscode';
import type { Guard } from '../protocol/guards';
import type { ResultOf, ViewRequest } from '../protocol/messages';
import { loadPanelPage } from './panel/panelPage';

/** What makes one kind of panel: its webview type, its page, and the guard of what its webview sends. */
export interface PanelDeclaration<FromView extends { type: string }> {
  /** The webview type (its serializer and `onWebviewPanel:` activation event use it). */
  viewType: string;
  /** The title until the panel names what it shows. */
  title: string;
  /** The bundle, as path segments under the extension, e.g. ['dist', 'webview.js']. */
  script: readonly string[];
  styles: readonly (readonly string[])[];
  /** Checks what the webview sends: it shows untrusted text, so nothing is assumed. */
  receives: Guard<FromView>;
}

/** A panel's stylesheets: KaTeX's, when it draws math, and the panels' shared one first. */
export const KATEX_STYLES = ['node_modules', 'katex', 'dist', 'katex.min.css'] as const;
export const PANEL_STYLES = ['media', 'panel.css'] as const;

/** The folders a panel may load from: the extension's media and dist, and KaTeX's stylesheet and fonts. */
export function resourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [
    vscode.Uri.joinPath(extensionUri, 'media'),
    vscode.Uri.joinPath(extensionUri, 'dist'),
    vscode.Uri.joinPath(extensionUri, 'node_modules', 'katex', 'dist'),
  ];
}

/** Webview options shared by new and restored panels: scripts on, nothing else reachable. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, enableForms: false, localResourceRoots: resourceRoots(extensionUri) };
}

/** Opens a new panel of a kind, beside the editor unless told where. */
export function createPanel(declaration: PanelDeclaration<{ type: string }>, extensionUri: vscode.Uri, show: { viewColumn: vscode.ViewColumn; preserveFocus: boolean }): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(declaration.viewType, declaration.title, show, webviewOptions(extensionUri));
}

/** Brings a kind's panels back after a reload: a saved state this version does not understand closes the panel. */
export function restorePanels<S>(declaration: PanelDeclaration<{ type: string }>, isState: Guard<S>, restore: (panel: vscode.WebviewPanel, state: S) => void | Promise<void>): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(declaration.viewType, {
    deserializeWebviewPanel: async (panel, state: unknown) => {
      if (!isState(state)) {
        panel.dispose();
        return;
      }
      await restore(panel, state);
    },
  });
}

/** What a panel does with its webview's messages. */
export interface PanelHandlers<FromView extends { type: string }> {
  /** The webview loaded and listens (after every load): send it what it shows. */
  onReady(): void;
  /** Any other message, already checked. */
  onMessage(message: Exclude<FromView, { type: 'ready' }>): void;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A live panel: the webview, its page, its messages, its end. */
export class WebviewPanelHost<ToView extends { type: string }, FromView extends { type: string }> implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly disposed = new vscode.EventEmitter<void>();
  /** Fires once, when the user closes the panel or it is disposed. */
  readonly onDidDispose = this.disposed.event;
  private ready = false;
  private isDisposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly declaration: PanelDeclaration<FromView>,
    private readonly extensionUri: vscode.Uri,
    private readonly handlers: PanelHandlers<FromView>,
  ) {
    panel.webview.options = webviewOptions(extensionUri);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'gutter-kept.svg');
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      panel.onDidDispose(() => this.dispose()),
    );
    this.load();
  }

  /** Whether the webview has said `ready` since its page was last loaded. */
  get isReady(): boolean {
    return this.ready;
  }

  /** Loads the page again (a fresh nonce); the webview says `ready` once more. */
  load(): void {
    this.ready = false;
    loadPanelPage(this.panel, { extensionUri: this.extensionUri, script: this.declaration.script, styles: this.declaration.styles });
  }

  post(message: ToView): void {
    if (!this.isDisposed) void this.panel.webview.postMessage(message);
  }

  /**
   * Answers a webview's request with exactly one `response`: what `work` resolves with, or, should
   * it fail, the failure `onError` makes of it.
   */
  answer<V extends ViewRequest<string, { type: string }, unknown>>(
    descriptor: V,
    request: { requestId: number },
    work: () => Promise<ResultOf<V>>,
    onError: (message: string) => ResultOf<V>,
  ): void {
    void Promise.resolve()
      .then(work)
      .catch((error: unknown) => onError(describe(error)))
      .then((result) => this.post({ type: 'response', requestId: request.requestId, method: descriptor.type, result } as unknown as ToView));
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.panel.dispose();
    this.disposed.fire();
    this.disposed.dispose();
  }

  private receive(message: unknown): void {
    if (this.isDisposed || !this.declaration.receives(message)) return;
    if (message.type === 'ready') {
      this.ready = true;
      this.handlers.onReady();
      return;
    }
    this.handlers.onMessage(message as Exclude<FromView, { type: 'ready' }>);
  }
}
