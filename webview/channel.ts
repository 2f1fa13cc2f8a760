/**
 * The webview's end of the panel protocol (`src/protocol/panel.ts`): its messages, checked on
 * arrival; its requests, each resolving with exactly one typed response; its saved state.
 */
import { isHostToWebview, isPanelState, type HostToWebview, type PanelState, type WebviewToHost } from '../src/protocol/panel';
import { HostChannel } from './hostChannel';

export class Channel extends HostChannel<HostToWebview, WebviewToHost, PanelState> {
  constructor() {
    super(isHostToWebview, isPanelState);
  }
}
