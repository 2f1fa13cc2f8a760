/**
 * Spans per row held as one column (the editor's raw step offsets of a file on disk): each row
 * gives back exactly the spans it was given, a row without spans (null) stays null, an empty
 * list stays empty, and rows before the first one added have none.
 */
import { describe, expect, it } from 'vitest';
import { Column, COLUMN_PAGE, COLUMN_PAGE_BITS, SpanColumn } from '../../../../src/core/table/columns';

describe('SpanColumn', () => {
  it('gives each row back its own spans, null or empty as it was given', () => {
    const given = [
      [{ start: 0, end: 5 }, { start: 7, end: 12 }],
      null,
      [],
      [{ start: 3, end: 3 }],
      Array.from({ length: 3000 }, (_, k) => ({ start: 10 * k, end: 10 * k + 9 })),
      null,
    ];
    const column = new SpanColumn(0);
    for (const spans of given) column.add(spans);
    expect(given.map((_, row) => column.spans(row))).toEqual(given);
  });

  it('rows before the first added, and rows past the last, have no spans', () => {
    const column = new SpanColumn(2);
    column.add([{ start: 1, end: 2 }]);
    expect([0, 1, 2, 3].map((row) => column.spans(row))).toEqual([null, null, [{ start: 1, end: 2 }], null]);
  });

  it('each call makes new objects: a caller that changes one does not change the column', () => {
    const column = new SpanColumn(0);
    column.add([{ start: 4, end: 8 }]);
    column.spans(0)![0]!.start = 99;
    expect(column.spans(0)).toEqual([{ start: 4, end: 8 }]);
  });
});

describe('Column', () => {
  it('holds every value pushed, across its pages, and its storage and pages give the same values', () => {
    const column = new Column(Float64Array);
    const n = 200_000;
    for (let i = 0; i < n; i++) column.push(i * 0.5 - 7);
    column.set(65_535, -1);
    column.set(65_536, -2);
    expect(column.length).toBe(n);
    const want = (i: number): number => (i === 65_535 ? -1 : i === 65_536 ? -2 : i * 0.5 - 7);
    const wrong: number[] = [];
    const flat = column.storage();
    const pages = column.pageList();
    for (let i = 0; i < n; i++) {
      if (column.get(i) !== want(i) || flat[i] !== want(i) || pages[i >>> COLUMN_PAGE_BITS]![i & (COLUMN_PAGE - 1)] !== want(i)) wrong.push(i);
    }
    expect(wrong).toEqual([]);
    expect(pages.length).toBe(Math.ceil(n / COLUMN_PAGE));
  });

  it('keeps a typed array’s own conversions (an Int32 column truncates, a Uint8 one wraps)', () => {
    const ints = new Column(Int32Array);
    const bytes = new Column(Uint8Array);
    for (const v of [1.7, -2.5, 2 ** 31]) ints.push(v);
    for (const v of [255, 256, -1]) bytes.push(v);
    expect([0, 1, 2].map((i) => ints.get(i))).toEqual([1, -2, -(2 ** 31)]);
    expect([0, 1, 2].map((i) => bytes.get(i))).toEqual([255, 0, 255]);
  });
});
