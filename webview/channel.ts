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
import { HostChannel } from './hostChannel';

type ExportParams = Omit<ExportKeptRequest, 'requestId'> | Omit<ExportDecisionsRequest, 'requestId'>;

export class Channel {
  private readonly link = new HostChannel<HostToWebview, WebviewToHost, ExportResult>(isHostToWebview);

  /** Listens to the host; messages that fail the guard are ignored. */
  listen(onMessage: (message: Exclude<HostToWebview, { type: 'response' }>) => void): void {
    this.link.listen(onMessage);
  }

  post(message: WebviewToHost): void {
    this.link.post(message);
  }

  /** Asks the host to export; resolves with its one answer. */
  request(params: ExportParams): Promise<ExportResult> {
    return this.link.request((requestId) => ({ ...params, requestId }) as WebviewToHost);
  }

  /** The state saved before a reload, if it is one this version understands. */
  savedState(): PanelState | null {
    const state = this.link.api.getState();
    return isPanelState(state) ? state : null;
  }

  saveState(state: PanelState): void {
    this.link.api.setState(state);
  }
}
