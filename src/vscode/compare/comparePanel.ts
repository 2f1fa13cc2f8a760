/**
 * The Compare view's webview panel: two analysed files' per-prompt changes (largest regression
 * first), and for a prompt the user picks, both sides' rollouts side by side. The analysis worker
 * compares (it keeps both analyses); the host passes a list and one prompt's rows at a time.
 */
import * as vscode from 'vscode';
import { isCompareToHost, type CompareSubject, type CompareToHost, type HostToCompare } from '../../protocol/explorer';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import { webviewOptions } from '../panel/panelHost';
import { loadPanelPage } from '../panel/panelPage';

export const COMPARE_VIEW_TYPE = 'profLens.comparePanel';

export interface ComparePanelDeps {
  extensionUri: vscode.Uri;
  client: Pick<AnalysisClient, 'explore'>;
  reveal: (source: vscode.Uri, rolloutId: number) => Promise<void>;
}

export class ComparePanel implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;
  private subject: CompareSubject | null = null;
  private isReady = false;
  private isDisposed = false;

  constructor(readonly panel: vscode.WebviewPanel, private readonly deps: ComparePanelDeps) {
    panel.webview.options = webviewOptions(deps.extensionUri);
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'gutter-kept.svg');
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      panel.onDidDispose(() => this.dispose()),
    );
    loadPanelPage(panel, { extensionUri: deps.extensionUri, script: ['dist', 'compareWebview.js'], styles: [['media', 'panel.css'], ['media', 'explorer.css']] });
  }

  /** Shows a comparison (replacing any shown). */
  show(subject: CompareSubject): void {
    this.subject = subject;
    this.panel.title = `Compare · ${subject.labelA} ↔ ${subject.labelB}`;
    this.panel.reveal(undefined, false);
    if (this.isReady) this.post({ type: 'comparison', subject });
  }

  notice(text: string): void {
    if (this.isReady) this.post({ type: 'notice', text });
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.panel.dispose();
    this.disposed.fire();
    this.disposed.dispose();
  }

  private post(message: HostToCompare): void {
    void this.panel.webview.postMessage(message);
  }

  private receive(message: unknown): void {
    if (isCompareToHost(message)) this.handle(message);
  }

  private handle(message: CompareToHost): void {
    const subject = this.subject;
    switch (message.type) {
      case 'ready':
        this.isReady = true;
        if (subject) this.post({ type: 'comparison', subject });
        break;
      case 'showPrompt':
        if (!subject) return;
        this.deps.client.explore(subject.a, { method: 'promptSides', other: subject.b, index: message.index }).then(
          (answer) => this.post({ type: 'sides', index: message.index, sides: answer.sides }),
          (error: unknown) => this.post({ type: 'sidesFailed', index: message.index, message: error instanceof Error ? error.message : String(error) }),
        );
        break;
      case 'open':
        if (subject) void this.deps.reveal(vscode.Uri.parse(message.side === 'a' ? subject.a : subject.b), message.rolloutId);
        break;
      default: {
        const unexpected: never = message;
        void unexpected;
      }
    }
  }
}
