/**
 * The explorer's and the Compare view's messages are checked on arrival: a webview showing
 * hostile text may send anything, and only well-formed requests reach the host's handlers.
 */
import { describe, expect, it } from 'vitest';
import { isCompareToHost, isExplorerCall, isExplorerState, isExplorerToHost, isHostToExplorer } from '../../../src/protocol/explorer';
import { isHostToWorker } from '../../../src/protocol/analysis';
import { isRunWebviewToHost } from '../../../src/protocol/run';

describe('explorer messages', () => {
  it('accepts the webview\'s requests and refuses malformed ones', () => {
    expect(isExplorerToHost({ type: 'query', requestId: 1, source: 'file:///a.jsonl', query: {}, offset: 0, limit: 200 })).toBe(true);
    expect(isExplorerToHost({ type: 'query', requestId: 1, source: 'file:///a.jsonl', query: {}, offset: -1, limit: 200 })).toBe(false);
    expect(isExplorerToHost({ type: 'export', requestId: 2, source: 'x', query: {}, ids: [1, 2] })).toBe(true);
    expect(isExplorerToHost({ type: 'export', requestId: 2, source: 'x', query: {}, ids: [1, '2'] })).toBe(false);
    expect(isExplorerToHost({ type: 'open', source: 'x', rolloutId: 1.5 })).toBe(false);
    expect(isExplorerToHost({ type: 'script', source: 'x' })).toBe(false);
    expect(isExplorerToHost(null)).toBe(false);
  });

  it('lets an explore request reach the worker only with a known call', () => {
    expect(isHostToWorker({ type: 'explore', requestId: 3, documentKey: 'k', call: { method: 'query', query: {}, offset: 0, limit: 10 } })).toBe(true);
    expect(isHostToWorker({ type: 'explore', requestId: 3, documentKey: 'k', call: { method: 'delete' } })).toBe(false);
    expect(isExplorerCall({ method: 'export', query: {}, ids: null, input: '/a', output: '/b' })).toBe(true);
    expect(isExplorerCall({ method: 'promptSides', other: 'k', index: -2 })).toBe(false);
  });

  it('takes a subject with its first page answered, and refuses one whose page is malformed', () => {
    const subject = { source: 'file:///a.jsonl', fileLabel: 'a.jsonl', rolloutCount: 3, query: { version: 1, filter: {}, sort: null } };
    const first = { method: 'query', query: subject.query, title: 'all rollouts · 3', page: { offset: 0, total: 3, rows: [] } };
    expect(isHostToExplorer({ type: 'subject', subject })).toBe(true);
    expect(isHostToExplorer({ type: 'subject', subject: { ...subject, first } })).toBe(true);
    expect(isHostToExplorer({ type: 'subject', subject: { ...subject, first: { ...first, page: { rows: 'all' } } } })).toBe(false);
    expect(isHostToExplorer({ type: 'subject', subject: { ...subject, first: { ...first, method: 'export' } } })).toBe(false);
  });

  it('checks responses, saved state and the compare view\'s messages', () => {
    expect(isHostToExplorer({ type: 'response', requestId: 1, method: 'query', result: { status: 'failed', message: 'bad pattern' } })).toBe(true);
    expect(isHostToExplorer({ type: 'response', requestId: 1, method: 'query', result: { status: 'answered', answer: { method: 'export' } } })).toBe(false);
    expect(isExplorerState({ version: 1, source: 'file:///a.jsonl', query: { version: 1, filter: {}, sort: null } })).toBe(true);
    expect(isExplorerState({ version: 2, source: 'file:///a.jsonl', query: {} })).toBe(false);
    expect(isCompareToHost({ type: 'open', side: 'b', rolloutId: 4 })).toBe(true);
    expect(isCompareToHost({ type: 'open', side: 'c', rolloutId: 4 })).toBe(false);
    expect(isRunWebviewToHost({ type: 'exploreStep', runId: 'r', step: 20, chart: 'chart-false-positives' })).toBe(true);
    expect(isRunWebviewToHost({ type: 'exploreStep', runId: 'r', step: 20 })).toBe(false);
  });
});
