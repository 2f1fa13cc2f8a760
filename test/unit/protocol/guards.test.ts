/** The building blocks every message guard is made of: what each accepts and refuses. */
import { describe, expect, it } from 'vitest';
import { arrayOf, isCount, isNonNegative, isRecord, isString, literal, nullable, optional, outline, shape, where } from '../../../src/protocol/guards';
import { message, protocol, savedState, viewRequest } from '../../../src/protocol/messages';

describe('guards', () => {
  it('a record is a plain object, never null or an array', () => {
    expect([{}, { a: 1 }].map(isRecord)).toEqual([true, true]);
    expect([null, [], 'x', 3, undefined].map(isRecord)).toEqual([false, false, false, false, false]);
  });

  it('counts are whole, safe and not negative; non-negative numbers are finite', () => {
    expect([0, 7, 2 ** 53 - 1].map(isCount)).toEqual([true, true, true]);
    expect([-1, 1.5, 2 ** 53, Number.NaN, '1'].map(isCount)).toEqual([false, false, false, false, false]);
    expect([0, 0.5].map(isNonNegative)).toEqual([true, true]);
    expect([Infinity, -0.1, Number.NaN].map(isNonNegative)).toEqual([false, false, false]);
  });

  it('a shape checks every field it lists; an optional field may be absent but not wrong', () => {
    const guard = shape({ name: isString, tags: arrayOf(isString), note: optional(isString), parent: nullable(isCount) });
    expect(guard({ name: 'a', tags: [], parent: null })).toBe(true);
    expect(guard({ name: 'a', tags: ['x'], note: 'n', parent: 2, extra: true })).toBe(true);
    expect(guard({ name: 'a', tags: [1], parent: null })).toBe(false);
    expect(guard({ name: 'a', tags: [], note: 3, parent: null })).toBe(false);
    expect(guard({ name: 'a', tags: [] })).toBe(false);
  });

  it('an outline checks only what it names; `where` adds a rule', () => {
    expect(outline<{ rows: unknown[]; total: number }>({ rows: arrayOf(isCount) })({ rows: [1] })).toBe(true);
    expect(where(isCount, (n) => n >= 1)(0)).toBe(false);
    expect(literal('a', 'b')('c')).toBe(false);
  });
});

describe('descriptors', () => {
  const ping = message('toHost', 'ping', { at: isCount });
  const ask = viewRequest('ask', { what: isString }, isString);
  const channel = protocol(ping, ask);

  it('a webview request carries an id and its response names its method', () => {
    const toHost = channel.guard('toHost');
    const fromHost = channel.guard('fromHost');
    expect(toHost({ type: 'ask', requestId: 1, what: 'x' })).toBe(true);
    expect(toHost({ type: 'ask', what: 'x' })).toBe(false);
    expect(fromHost({ type: 'response', requestId: 1, method: 'ask', result: 'y' })).toBe(true);
    expect(fromHost({ type: 'response', requestId: 1, method: 'ping', result: 'y' })).toBe(false);
    expect(fromHost({ type: 'response', requestId: 1, method: 'ask', result: 3 })).toBe(false);
    expect(fromHost({ type: 'ping', at: 1 })).toBe(false);
  });

  it('a saved state of another version is refused', () => {
    const isState = savedState(2, { source: isString });
    expect(isState({ version: 2, source: 's' })).toBe(true);
    expect(isState({ version: 1, source: 's' })).toBe(false);
  });
});
