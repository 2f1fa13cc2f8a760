/**
 * Every channel's messages are declared once, as descriptors: these tests check what the
 * declarations promise, for every protocol: a request is answered from the other side, each reply
 * is a declared message, the guards built from them reject anything undeclared, and no protocol
 * file checks messages by hand.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MessageDescriptor, Protocol } from '../../../src/protocol/messages';
import { analysisProtocol } from '../../../src/protocol/analysis';
import { casProtocol } from '../../../src/protocol/cas';
import { compareWorkerProtocol } from '../../../src/protocol/compare';
import { compareProtocol, explorerProtocol } from '../../../src/protocol/explorer';
import { panelProtocol } from '../../../src/protocol/panel';
import { runProtocol } from '../../../src/protocol/run';
import { summaryProtocol } from '../../../src/protocol/runSummaries';
import { runExplorerProtocol } from '../../../src/protocol/runExplorer';
import { tokenizerProtocol } from '../../../src/protocol/tokenizer';
import { onnxProtocol } from '../../../src/protocol/onnx';
import { rulesProtocol } from '../../../src/protocol/rules';

const protocols: Record<string, Protocol<readonly MessageDescriptor[]>> = {
  analysis: analysisProtocol,
  onnx: onnxProtocol,
  cas: casProtocol,
  tokenizer: tokenizerProtocol,
  summary: summaryProtocol,
  runExplorer: runExplorerProtocol,
  compareWorker: compareWorkerProtocol,
  panel: panelProtocol,
  run: runProtocol,
  explorer: explorerProtocol,
  compare: compareProtocol,
  rules: rulesProtocol,
};

const other = (direction: string): string => (direction === 'toHost' ? 'fromHost' : 'toHost');

describe.each(Object.entries(protocols))('the %s protocol', (_name, protocol) => {
  it('answers every request from the other side, with messages it declares', () => {
    for (const message of protocol.messages) {
      for (const reply of [...(message.replies ?? []), ...(message.updates ?? [])]) {
        expect(reply.direction, `${message.type} → ${reply.type}`).toBe(other(message.direction));
        expect(protocol.messages).toContain(reply);
      }
    }
  });

  it('declares each type once per direction (a webview\'s responses are told apart by their method)', () => {
    const seen = new Set<string>();
    for (const message of protocol.messages) {
      if (message.type === 'response') continue;
      const key = `${message.direction} ${message.type}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });

  it('accepts only declared types, whichever way they go', () => {
    for (const direction of ['toHost', 'fromHost'] as const) {
      const guard = protocol.guard(direction);
      for (const bad of [null, undefined, 'ready', 3, [], {}, { type: 'undeclared' }, { type: 42 }, { type: 'constructor' }, { type: '__proto__' }]) {
        expect(guard(bad), `${direction} ${JSON.stringify(bad)}`).toBe(false);
      }
      // A message that arrives the other way is not one this end receives.
      const types = new Set(protocol.messages.filter((m) => m.direction === direction).map((m) => m.type));
      for (const message of protocol.messages.filter((m) => m.direction !== direction && !types.has(m.type))) {
        expect(guard({ type: message.type }), `${direction} ${message.type}`).toBe(false);
      }
    }
  });
});

describe('protocol files', () => {
  it('check messages only through guards built from their descriptors, never by a hand-written switch', () => {
    const folder = join(__dirname, '../../../src/protocol');
    const handWritten = readdirSync(folder).filter((file) => /switch \(value(\.type|\['(type|method|kind|status)'\])\)/.test(readFileSync(join(folder, file), 'utf8')));
    expect(handWritten).toEqual([]);
  });
});
