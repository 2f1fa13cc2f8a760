/**
 * The Compare Rules view's webview panel: every curation rule on one analysed file, side by side
 * (computed in the analysis worker, which keeps the analysis). A cell of the overlap matrix opens
 * the Rollout Explorer on the rollouts the two rules disagree on.
 */
import * as vscode from 'vscode';
import { isRulesToHost, type HostToRules, type RulesSubject, type RulesToHost } from '../../protocol/rules';
import { PANEL_STYLES, WebviewPanelHost, type PanelDeclaration } from '../webviewPanel';

export const RULES_PANEL: PanelDeclaration<RulesToHost> = {
  viewType: 'profLens.rulesPanel',
  title: 'Compare Rules',
  script: ['dist', 'rulesWebview.js'],
  styles: [PANEL_STYLES, ['media', 'explorer.css'], ['media', 'rules.css']],
  receives: isRulesToHost,
};

export interface RulesPanelDeps {
  extensionUri: vscode.Uri;
  /** Opens the Explorer on `source` filtered to the rollouts rules a and b decide differently. */
  openDisagreement: (subject: RulesSubject, a: string, b: string) => void;
}

export class RulesPanel implements vscode.Disposable {
  private readonly view: WebviewPanelHost<HostToRules, RulesToHost>;
  readonly onDidDispose: vscode.Event<void>;
  private subject: RulesSubject | null = null;
  private pendingNotice: string | null = null;

  constructor(readonly panel: vscode.WebviewPanel, private readonly deps: RulesPanelDeps) {
    this.view = new WebviewPanelHost(panel, RULES_PANEL, deps.extensionUri, {
      onReady: () => {
        if (this.subject) this.view.post({ type: 'rules', subject: this.subject });
        else if (this.pendingNotice) this.view.post({ type: 'notice', text: this.pendingNotice });
      },
      onMessage: (message) => this.receive(message),
    });
    this.onDidDispose = this.view.onDidDispose;
  }

  /** The file shown (a URI string), once figures were shown. */
  get source(): string | null {
    return this.subject?.source ?? null;
  }

  /** Shows figures; `reveal`: bring the view forward (not when a new analysis only refreshes them). */
  show(subject: RulesSubject, reveal = true): void {
    this.subject = subject;
    this.panel.title = `Compare Rules · ${subject.fileLabel}`;
    if (reveal) this.panel.reveal(undefined, true);
    if (this.view.isReady) this.view.post({ type: 'rules', subject });
  }

  notice(text: string): void {
    this.pendingNotice = text;
    if (this.view.isReady) this.view.post({ type: 'notice', text });
  }

  dispose(): void {
    this.view.dispose();
  }

  private receive(message: Exclude<RulesToHost, { type: 'ready' }>): void {
    // One message comes from the view: which two rules to see the disagreement of.
    if (this.subject) this.deps.openDisagreement(this.subject, message.a, message.b);
  }
}
