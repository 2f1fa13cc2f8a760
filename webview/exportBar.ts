/**
 * Export buttons: the kept rollouts (the same bytes `prof-lens filter` writes) and the decisions
 * (JSONL or CSV) of the whole file, saved by the host through a save dialog.
 */
import { h } from './dom';
import type { Channel } from './channel';
import { exportDecisions, exportKept, type DecisionFormat, type ExportResult, type WhatIfSettings } from '../src/protocol/panel';

/** What the bar exports: which file, and with which settings (null: as analysed). */
export interface ExportOptions {
  channel: Channel;
  source: string;
  settings: () => WhatIfSettings | null;
}

function resultText(result: ExportResult): string {
  switch (result.status) {
    case 'saved':
      return `Saved ${result.lines} line${result.lines === 1 ? '' : 's'} to ${result.path}`;
    case 'cancelled':
      return 'Export cancelled.';
    case 'failed':
      return `Export failed: ${result.message}`;
  }
}

/** The export bar. */
export function exportBar(options: ExportOptions): HTMLElement {
  const status = h('span', { className: 'export-status', attrs: { role: 'status', 'aria-live': 'polite' } });
  const format = h('vscode-dropdown', {
    attrs: { id: 'export-format', 'aria-label': 'Decisions file format' },
    children: [h('vscode-option', { text: 'JSONL', attrs: { value: 'jsonl' } }), h('vscode-option', { text: 'CSV', attrs: { value: 'csv' } })],
  }) as HTMLElement & { value: string };
  const run = async (button: HTMLElement, ask: () => Promise<ExportResult>): Promise<void> => {
    button.setAttribute('disabled', '');
    status.textContent = 'Exporting…';
    try {
      status.textContent = resultText(await ask());
    } finally {
      button.removeAttribute('disabled');
    }
  };
  const kept = h('vscode-button', { text: 'Export kept rollouts…', attrs: { id: 'export-kept', title: 'Write the rollouts PROF keeps in the whole file, as prof-lens filter does' } });
  kept.addEventListener('click', () => void run(kept, () => options.channel.request(exportKept, { source: options.source, settings: options.settings() })));
  const decisions = h('vscode-button', { text: 'Export decisions…', attrs: { id: 'export-decisions', appearance: 'secondary', title: 'One decision line per rollout of the whole file' } });
  decisions.addEventListener('click', () => {
    const chosen: DecisionFormat = format.value === 'csv' ? 'csv' : 'jsonl';
    void run(decisions, () => options.channel.request(exportDecisions, { source: options.source, settings: options.settings(), format: chosen }));
  });
  return h('section', { className: 'export', attrs: { 'aria-label': 'Export' }, children: [kept, decisions, format, status] });
}
