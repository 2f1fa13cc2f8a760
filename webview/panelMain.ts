/**
 * The PROF panels' webview entry: registers the toolkit components, restores the saved state,
 * says `ready`, and renders whatever view the host sends. A group whose first paint has a formula
 * waits for the typesetter (fetched on first use) before it is drawn, so it is drawn typeset.
 */
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeDropdown, vsCodeOption, vsCodeTextField } from '@vscode/webview-ui-toolkit';
import { Channel } from './channel';
import { h, replaceChildren } from './dom';
import { renderGroupView } from './groupView';
import { renderDashboard } from './dashboardView';
import { mark, markPainted } from './timing';
import { loadMath } from './math';
import { hasFormula } from './mathText';
import { PANEL_STATE_VERSION, type GroupData, type HostToWebview, type PanelState, type WhatIfSettings } from '../src/protocol/panel';

mark('script evaluated');
provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeDropdown(), vsCodeOption(), vsCodeTextField());

const channel = new Channel();
const root = document.getElementById('app') as HTMLElement;
const saved = channel.savedState();
/** The what-if settings follow the user from group to group until reset. */
let whatIf: WhatIfSettings | null = saved?.whatIf ?? null;
/** The group shown and which of its rows show their steps: the same group sent again keeps them open. */
let shownGroup = '';
let expanded = new Set<number>();

function save(state: Omit<PanelState, 'version'>): void {
  channel.saveState({ version: PANEL_STATE_VERSION, ...state });
}

/** Whether the group's first paint (its question, its turns, the gold answer, the steps of the rows open) typesets a formula. */
function paintsFormula(data: GroupData): boolean {
  const openSteps = data.rows.filter((row) => expanded.has(row.id)).flatMap((row) => row.steps.map((step) => step.text));
  return hasFormula({ texts: [data.prompt, data.system ?? '', ...(data.earlierTurns ?? []).map((t) => t.text), ...openSteps], answers: [data.gold] });
}

function show(message: Exclude<HostToWebview, { type: 'response' }>): void {
  switch (message.type) {
    case 'group': {
      const { data } = message;
      const rolloutId = data.rows[0]?.id ?? null;
      const groupKey = JSON.stringify([data.source, data.group]);
      if (groupKey !== shownGroup) expanded = new Set<number>();
      shownGroup = groupKey;
      save({ view: 'group', source: data.source, rolloutId, whatIf });
      renderGroupView(root, {
        channel,
        data,
        whatIf,
        expanded,
        onWhatIf: (next) => {
          whatIf = next;
          save({ view: 'group', source: data.source, rolloutId, whatIf });
        },
      });
      break;
    }
    case 'dashboard':
      save({ view: 'dashboard', source: message.data.source, rolloutId: null, whatIf: null });
      renderDashboard(root, message.data, channel);
      break;
    case 'notice':
      replaceChildren(root, [h('p', { className: 'notice', text: message.notice.text })]);
      break;
    default: {
      const unexpected: never = message;
      void unexpected;
    }
  }
}

/** Counts the messages shown, so a group that waited for the typesetter does not replace a newer view. */
let latest = 0;

function showNow(message: Exclude<HostToWebview, { type: 'response' }>): void {
  show(message);
  mark(`${message.type} rendered`);
  markPainted(`${message.type} painted`);
}

channel.listen((message) => {
  mark(`${message.type} received`);
  const turn = ++latest;
  if (message.type === 'group' && paintsFormula(message.data)) void loadMath().then(() => turn === latest && showNow(message));
  else showNow(message);
});
channel.post({ type: 'ready' });
mark('ready sent');
