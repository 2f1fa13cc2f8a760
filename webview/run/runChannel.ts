/**
 * The Run Dashboard's end of its protocol: posting typed messages, receiving checked ones, and
 * the saved state (which runs it shows).
 */
import { isHostToRunWebview, isRunPanelState, type HostToRunWebview, type RunPanelState, type RunWebviewToHost } from '../../src/protocol/run';
import { vscodeApi } from '../hostChannel';

export class RunChannel {
  private readonly api = vscodeApi();

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
