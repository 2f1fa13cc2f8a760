import { describe, expect, it } from 'vitest';
import {
  PANEL_STATE_VERSION,
  isHostToWebview,
  isPanelState,
  isWebviewToHost,
  isWhatIfSettings,
  type WhatIfSettings,
} from '../../../src/protocol/panel';

const settings: WhatIfSettings = { m: 4, remove: null, variant: 'both', seed: 0, penalty: 'card', lambda: 10, maxSteps: 30, aggregate: 'mean' };

describe('messages from the webview (checked by the host)', () => {
  it('accepts every well-formed message', () => {
    const good: unknown[] = [
      { type: 'ready' },
      { type: 'reveal', source: 'file:///a.jsonl', rolloutId: 3 },
      { type: 'showGroup', source: 'file:///a.jsonl', rolloutId: 0 },
      { type: 'showDashboard', source: 'file:///a.jsonl' },
      { type: 'exportKept', requestId: 1, source: 'file:///a.jsonl', settings: null },
      { type: 'exportKept', requestId: 2, source: 'file:///a.jsonl', settings },
      { type: 'exportDecisions', requestId: 3, source: 'file:///a.jsonl', settings, format: 'csv' },
      { type: 'label', source: 'file:///a.jsonl', rolloutId: 2, action: 'firstWrongStep', step: 0 },
      { type: 'label', source: 'file:///a.jsonl', rolloutId: 2, action: 'sound', step: null },
      { type: 'label', source: 'file:///a.jsonl', rolloutId: 2, action: 'clear', step: null },
    ];
    for (const message of good) expect(isWebviewToHost(message), JSON.stringify(message)).toBe(true);
  });

  it('rejects unknown types, missing fields, wrong types and bad what-if values', () => {
    const bad: unknown[] = [
      null, 'ready', [], { type: 'unknown' }, { type: 'reveal', source: 'x' },
      { type: 'reveal', source: 'x', rolloutId: -1 }, { type: 'reveal', source: 'x', rolloutId: 1.5 },
      { type: 'reveal', source: 1, rolloutId: 1 }, { type: 'showDashboard' },
      { type: 'exportKept', source: 'x', settings: null },
      { type: 'exportKept', requestId: 1, source: 'x', settings: { ...settings, m: -1 } },
      { type: 'exportKept', requestId: 1, source: 'x', settings: { ...settings, variant: 'neg' } },
      { type: 'exportKept', requestId: 1, source: 'x', settings: { ...settings, lambda: Number.NaN } },
      { type: 'exportKept', requestId: 1, source: 'x', settings: { ...settings, maxSteps: 0 } },
      { type: 'exportDecisions', requestId: 1, source: 'x', settings: null, format: 'xlsx' },
      // A label button: a step only (and always) for a first wrong step, a whole index, a known action.
      { type: 'label', source: 'x', rolloutId: 0, action: 'firstWrongStep', step: null },
      { type: 'label', source: 'x', rolloutId: 0, action: 'firstWrongStep', step: -1 },
      { type: 'label', source: 'x', rolloutId: 0, action: 'firstWrongStep', step: 0.5 },
      { type: 'label', source: 'x', rolloutId: 0, action: 'sound', step: 1 },
      { type: 'label', source: 'x', rolloutId: 0, action: 'delete', step: null },
      { type: 'label', source: 'x', rolloutId: -2, action: 'clear', step: null },
      { type: 'label', rolloutId: 0, action: 'clear', step: null },
    ];
    for (const message of bad) expect(isWebviewToHost(message), JSON.stringify(message)).toBe(false);
  });

  it('what-if settings: remove may be null or an integer ≥ 0, λ any finite number ≥ 0', () => {
    expect(isWhatIfSettings({ ...settings, remove: 2, lambda: 0.5 })).toBe(true);
    expect(isWhatIfSettings({ ...settings, remove: -2 })).toBe(false);
    expect(isWhatIfSettings({ ...settings, lambda: Infinity })).toBe(false);
    expect(isWhatIfSettings({ ...settings, aggregate: 'max' })).toBe(false);
  });
});

describe('messages from the host (checked by the webview)', () => {
  it('accepts views, notices and typed export responses', () => {
    const good: unknown[] = [
      { type: 'group', data: { source: 's', rows: [], settings: {} } },
      { type: 'dashboard', data: { source: 's', report: {}, falsePositives: [] } },
      { type: 'notice', notice: { source: null, text: 'Analysing…' } },
      { type: 'response', requestId: 1, method: 'exportKept', result: { status: 'saved', path: '/a', lines: 3 } },
      { type: 'response', requestId: 2, method: 'exportDecisions', result: { status: 'cancelled' } },
      { type: 'response', requestId: 3, method: 'exportDecisions', result: { status: 'failed', message: 'no' } },
    ];
    for (const message of good) expect(isHostToWebview(message), JSON.stringify(message)).toBe(true);
  });

  it('rejects malformed views and responses', () => {
    const bad: unknown[] = [
      { type: 'group', data: { source: 's', rows: {} } },
      { type: 'dashboard', data: { source: 's' } },
      { type: 'notice', notice: { text: 1, source: null } },
      { type: 'response', requestId: 1, method: 'exportKept', result: { status: 'saved', path: '/a' } },
      { type: 'response', requestId: 1, method: 'delete', result: { status: 'cancelled' } },
      { type: 'response', method: 'exportKept', result: { status: 'cancelled' } },
    ];
    for (const message of bad) expect(isHostToWebview(message), JSON.stringify(message)).toBe(false);
  });
});

describe('saved panel state', () => {
  const state = { version: PANEL_STATE_VERSION, view: 'group', source: 'file:///a.jsonl', rolloutId: 2, whatIf: settings };

  it('is restored when its version is current', () => {
    expect(isPanelState(state)).toBe(true);
    expect(isPanelState({ ...state, view: 'dashboard', rolloutId: null, whatIf: null })).toBe(true);
  });

  it('is ignored when it is older, damaged or of another view', () => {
    expect(isPanelState({ ...state, version: 0 })).toBe(false);
    expect(isPanelState({ ...state, view: 'chart' })).toBe(false);
    expect(isPanelState({ ...state, whatIf: { m: 2 } })).toBe(false);
    expect(isPanelState(undefined)).toBe(false);
  });
});
