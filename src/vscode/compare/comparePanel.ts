/**
 * The Compare view's webview panel: two analysed files' per-prompt changes (largest regression
 * first), and for a prompt the user picks, both sides' rollouts side by side. The analysis worker
 * compares (it keeps both analyses); the host passes a list and one prompt's rows at a time.
 */
import * as vscode from 'vscode';
import { isCompareToHost, type CompareSubject, type CompareToHost, type HostToCompare } from '../../protocol/explorer';
import { unhandled } from '../../protocol/messages';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import { PANEL_STYLES, WebviewPanelHost, type PanelDeclaration } from '../webviewPanel';
import { errorText } from '../../core/errorText';

/** The Compare view (restored after a reload by comparing the two files it names again). */
export const COMPARE_PANEL: PanelDeclaration<CompareToHost> = {
  viewType: 'profLens.comparePanel',
  title: 'Compare',
  script: ['dist', 'compareWebview.js'],
  styles: [PANEL_STYLES, ['media', 'explorer.css']],
  receives: isCompareToHost,
};

export interface ComparePanelDeps {
  extensionUri: vscode.Uri;
  client: Pick<AnalysisClient, 'explore'>;
  reveal: (source: vscode.Uri, rolloutId: number) => Promise<void>;
}

export class ComparePanel implements vscode.Disposable {
  private readonly view: WebviewPanelHost<HostToCompare, CompareToHost>;
  readonly onDidDispose: vscode.Event<void>;
  private subject: CompareSubject | null = null;

  constructor(readonly panel: vscode.WebviewPanel, private readonly deps: ComparePanelDeps) {
    this.view = new WebviewPanelHost(panel, COMPARE_PANEL, deps.extensionUri, {
      onReady: () => this.subject && this.post({ type: 'comparison', subject: this.subject }),
      onMessage: (message) => this.receive(message),
    });
    this.onDidDispose = this.view.onDidDispose;
  }

  /** Shows a comparison (replacing any shown). */
  show(subject: CompareSubject): void {
    this.subject = subject;
    this.panel.title = `Compare · ${subject.labelA} ↔ ${subject.labelB}`;
    this.panel.reveal(undefined, false);
    if (this.view.isReady) this.post({ type: 'comparison', subject });
  }

  notice(text: string): void {
    if (this.view.isReady) this.post({ type: 'notice', text });
  }

  dispose(): void {
    this.view.dispose();
  }

  private post(message: HostToCompare): void {
    this.view.post(message);
  }

  private receive(message: Exclude<CompareToHost, { type: 'ready' }>): void {
    const subject = this.subject;
    switch (message.type) {
      case 'showPrompt':
        if (!subject) return;
        this.deps.client.explore(subject.a, { method: 'promptSides', other: subject.b, index: message.index }).then(
          (answer) => this.post({ type: 'sides', index: message.index, sides: answer.sides }),
          (error: unknown) => this.post({ type: 'sidesFailed', index: message.index, message: errorText(error) }),
        );
        break;
      case 'open':
        if (subject) void this.deps.reveal(vscode.Uri.parse(message.side === 'a' ? subject.a : subject.b), message.rolloutId);
        break;
      default:
        unhandled(message);
    }
  }
}
