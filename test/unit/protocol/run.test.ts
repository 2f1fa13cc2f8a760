import { describe, expect, it } from 'vitest';
import { isHostToRunWebview, isRunPanelState, isRunWebviewToHost, RUN_STATE_VERSION } from '../../../src/protocol/run';

describe('Run Dashboard messages', () => {
  it('the host accepts only well-formed commands from the webview', () => {
    for (const good of [{ type: 'ready' }, { type: 'addRun' }, { type: 'openStep', runId: 'file:///r', step: 40 }, { type: 'removeRun', runId: 'file:///r' }]) expect(isRunWebviewToHost(good), JSON.stringify(good)).toBe(true);
    for (const bad of [null, 'ready', { type: 'openStep', runId: 'r', step: -1 }, { type: 'openStep', runId: 'r', step: 1.5 }, { type: 'openStep', step: 1 }, { type: 'removeRun' }, { type: 'openFile', path: '/etc/passwd' }]) {
      expect(isRunWebviewToHost(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('the webview accepts the dashboard, a run and a removal', () => {
    const run = { id: 'r', label: 'r', location: '/r', steps: [], totalSteps: 0, stride: 1, files: 0, problems: [], problemCount: 0, progress: null, modelError: null };
    expect(isHostToRunWebview({ type: 'dashboard', data: { runs: [run], settings: { penalty: 'card', maxSteps: 30, m: 4, remove: null, threshold: 0.5 }, scorerLabel: 'checker' } })).toBe(true);
    expect(isHostToRunWebview({ type: 'run', run })).toBe(true);
    expect(isHostToRunWebview({ type: 'removed', runId: 'r' })).toBe(true);
    expect(isHostToRunWebview({ type: 'dashboard', data: { runs: [{ id: 1 }], settings: {}, scorerLabel: 'x' } })).toBe(false);
    expect(isHostToRunWebview({ type: 'run', run: { id: 'r' } })).toBe(false);
  });

  it('restores only a saved state of this version', () => {
    expect(isRunPanelState({ version: RUN_STATE_VERSION, runs: ['file:///a', 'file:///b'] })).toBe(true);
    expect(isRunPanelState({ version: 0, runs: [] })).toBe(false);
    expect(isRunPanelState({ version: RUN_STATE_VERSION, runs: [3] })).toBe(false);
  });
});
