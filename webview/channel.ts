/**
 * The webview's end of the panel protocol: posting typed messages, receiving checked ones, the
 * saved state, and requests that each resolve with exactly one typed response.
 */
import {
  isHostToWebview,
  isPanelState,
  type ExportResult,
  type ExportDecisionsRequest,
  type ExportKeptRequest,
  type HostToWebview,
  type PanelState,
  type WebviewToHost,
} from '../src/protocol/panel';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

type ExportParams = Omit<ExportKeptRequest, 'requestId'> | Omit<ExportDecisionsRequest, 'requestId'>;

/** One per webview: `acquireVsCodeApi` may only be called once. */
export class Channel {
  private readonly api = acquireVsCodeApi();
  private readonly pending = new Map<number, (result: ExportResult) => void>();
  private nextRequestId = 1;

  /** Listens to the host; messages that fail the guard are ignored. */
  listen(onMessage: (message: Exclude<HostToWebview, { type: 'response' }>) => void): void {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      const message = event.data;
      if (!isHostToWebview(message)) return;
      if (message.type === 'response') {
        const resolve = this.pending.get(message.requestId);
        this.pending.delete(message.requestId);
        resolve?.(message.result);
        return;
      }
      onMessage(message);
    });
  }

  post(message: WebviewToHost): void {
    this.api.postMessage(message);
  }

  /** Asks the host to export; resolves with its one answer. */
  request(params: ExportParams): Promise<ExportResult> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve) => {
      this.pending.set(requestId, resolve);
      this.post({ ...params, requestId } as WebviewToHost);
    });
  }

  /** The state saved before a reload, if it is one this version understands. */
  savedState(): PanelState | null {
    const state = this.api.getState();
    return isPanelState(state) ? state : null;
  }

  saveState(state: PanelState): void {
    this.api.setState(state);
  }
}
