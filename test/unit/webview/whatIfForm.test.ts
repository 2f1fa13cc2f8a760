import { describe, expect, it } from 'vitest';
import { fieldsOf, parseWhatIf, type WhatIfFields } from '../../../webview/whatIfForm';
import type { WhatIfSettings } from '../../../src/protocol/panel';

const analysed: WhatIfSettings = { m: 4, remove: null, variant: 'both', seed: 0, penalty: 'card', lambda: 10, maxSteps: 30, aggregate: 'mean' };
const fields = (over: Partial<WhatIfFields>): WhatIfFields => ({ ...fieldsOf(analysed), ...over });

describe('reading the what-if controls', () => {
  it('round-trips settings through the fields', () => {
    expect(parseWhatIf(fieldsOf(analysed), analysed)).toEqual({ ok: true, settings: analysed });
    const other: WhatIfSettings = { m: 4, remove: 3, variant: 'pos', seed: 9, penalty: 'reference', lambda: 2.5, maxSteps: 12, aggregate: 'min' };
    expect(parseWhatIf(fieldsOf(other), analysed)).toEqual({ ok: true, settings: other });
  });

  it('m as typed, with spaces around it', () => {
    expect(parseWhatIf(fields({ count: ' 6 ' }), analysed)).toEqual({ ok: true, settings: { ...analysed, m: 6 } });
  });

  it('remove mode sets R and keeps the previous m', () => {
    expect(parseWhatIf(fields({ mode: 'remove', count: '2' }), { ...analysed, m: 7 })).toEqual({ ok: true, settings: { ...analysed, m: 7, remove: 2 } });
  });

  it('names every invalid field and gives no settings', () => {
    const parsed = parseWhatIf(fields({ count: '-1', lambda: 'ten', maxSteps: '0', seed: '1.5', penalty: 'none', aggregate: 'max' }), analysed);
    expect(parsed).toEqual({ ok: false, invalid: ['count', 'lambda', 'maxSteps', 'penalty', 'seed', 'aggregate'] });
  });

  it('accepts decimal λ forms and rejects the rest', () => {
    for (const ok of ['0', '2.5', '.5', '3.', '1e2']) expect(parseWhatIf(fields({ lambda: ok }), analysed).ok, ok).toBe(true);
    for (const bad of ['', '-1', 'Infinity', 'NaN', '0x10', '1,5']) expect(parseWhatIf(fields({ lambda: bad }), analysed).ok, bad).toBe(false);
  });

  it('rejects counts too large to be exact', () => {
    expect(parseWhatIf(fields({ count: '99999999999999999999' }), analysed).ok).toBe(false);
  });
});
