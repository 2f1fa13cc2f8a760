import { describe, expect, it } from 'vitest';
import { fitColumns, gridTemplate, type Column } from '../../../../webview/explorer/columnFit';

const ALL: Column[] = ['line', 'group', 'outcome', 'extracted', 'gold', 'steps', 'meanScore', 'weakestScore', 'consistency', 'decision', 'falsePositive', 'penalised', 'unscored', 'responseChars'];

describe('the explorer\'s columns at a width', () => {
  it('half an editor wide: where, outcome, decision and the false-positive evidence stay, in their own order', () => {
    // About 45em: a 640-pixel group at 13 px.
    const shown = fitColumns(ALL, 45, null);
    expect(shown.slice(0, 2)).toEqual(['line', 'outcome']);
    expect(shown).toContain('decision');
    expect(shown).toContain('falsePositive');
    expect(shown).not.toContain('responseChars');
    expect(shown).toEqual(ALL.filter((c) => shown.includes(c)));
  });

  it('a wide panel shows every column', () => {
    expect(fitColumns(ALL, 200, null)).toEqual(ALL);
  });

  it('the sorted column is always shown: the order is read by it', () => {
    expect(fitColumns(ALL, 45, 'responseChars')).toContain('responseChars');
  });

  it('a search\'s match comes first, and the narrowest panel still shows two columns', () => {
    expect(fitColumns(['match', ...ALL], 45, null)[0]).toBe('match');
    expect(fitColumns(ALL, 1, null)).toEqual(['line', 'outcome']);
  });

  it('prose columns share the room left over', () => {
    expect(gridTemplate(['line', 'decision'])).toBe('7em minmax(11em, 1fr)');
  });
});
