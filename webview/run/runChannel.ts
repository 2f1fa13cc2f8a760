/**
 * The Run Dashboard's end of its protocol (`src/protocol/run.ts`): its messages, checked on
 * arrival, and the saved state (which runs it shows).
 */
import { isHostToRunWebview, isRunPanelState, type HostToRunWebview, type RunPanelState, type RunWebviewToHost } from '../../src/protocol/run';
import { HostChannel } from '../hostChannel';

export class RunChannel extends HostChannel<HostToRunWebview, RunWebviewToHost, RunPanelState> {
  constructor() {
    super(isHostToRunWebview, isRunPanelState);
  }
}
