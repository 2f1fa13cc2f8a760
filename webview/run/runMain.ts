/**
 * The Run Dashboard's webview entry: registers the toolkit's button, says `ready`, and renders what
 * the host sends; it saves which runs it shows so the dashboard comes back after a reload.
 */
import { provideVSCodeDesignSystem, vsCodeButton } from '@vscode/webview-ui-toolkit';
import { RUN_STATE_VERSION, type HostToRunWebview } from '../../src/protocol/run';
import { RunChannel } from './runChannel';
import { RunPage } from './runPage';

provideVSCodeDesignSystem().register(vsCodeButton());

const channel = new RunChannel();
const root = document.getElementById('app') as HTMLElement;
const page = new RunPage(root, channel);

function save(): void {
  channel.saveState({ version: RUN_STATE_VERSION, runs: page.runIds() });
}

function show(message: HostToRunWebview): void {
  switch (message.type) {
    case 'dashboard':
      page.show(message.data);
      break;
    case 'run':
      page.showRun(message.run);
      break;
    case 'removed':
      page.removeRun(message.runId);
      break;
    case 'health':
      page.showHealth(message.health);
      break;
    default: {
      const unexpected: never = message;
      void unexpected;
    }
  }
  save();
}

channel.listen(show);
channel.post({ type: 'ready' });
