/**
 * The Run Dashboard's end of its protocol: posting typed messages, receiving checked ones, and
 * the saved state (which runs it shows).
 */
import { isHostToRunWebview, isRunPanelState, type HostToRunWebview, type RunPanelState, type RunWebviewToHost } from '../../src/protocol/run';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** One per webview: `acquireVsCodeApi` may only be called once. */
export class RunChannel {
  private readonly api = acquireVsCodeApi();

  listen(onMessage: (message: HostToRunWebview) => void): void {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (isHostToRunWebview(event.data)) onMessage(event.data);
    });
  }

  post(message: RunWebviewToHost): void {
    this.api.postMessage(message);
  }

  savedState(): RunPanelState | null {
    const state = this.api.getState();
    return isRunPanelState(state) ? state : null;
  }

  saveState(state: RunPanelState): void {
    this.api.setState(state);
  }
}
