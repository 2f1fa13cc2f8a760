/** Progress of the analyses, as the status bar, the panels and the metrics hear of it. */
import * as vscode from 'vscode';
import type { EndpointStatus } from '../../protocol/endpoints';

/** Progress of the analysis the user is looking at, for the status bar. */
export interface AnalysisProgress {
  uri: vscode.Uri;
  state: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  message?: string;
  /** A slow phase worth naming: loading a model, scoring with it. */
  activity?: string;
  /** A served model's endpoints while it scores. */
  endpoints?: EndpointStatus[];
}

/** The one place progress events are made. */
export class ProgressEvents implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<AnalysisProgress>();
  readonly event = this.emitter.event;

  started(uri: vscode.Uri): void {
    this.emitter.fire({ uri, state: 'running', done: 0, total: 0 });
  }

  running(uri: vscode.Uri, done: number, total: number, activity?: string, endpoints?: EndpointStatus[]): void {
    this.emitter.fire({ uri, state: 'running', done, total, ...(activity ? { activity } : {}), ...(endpoints ? { endpoints } : {}) });
  }

  done(uri: vscode.Uri, rollouts: number): void {
    this.emitter.fire({ uri, state: 'done', done: rollouts, total: rollouts });
  }

  failed(uri: vscode.Uri, message: string): void {
    this.emitter.fire({ uri, state: 'failed', done: 0, total: 0, message });
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
