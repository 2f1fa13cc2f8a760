/**
 * Storage for many small values without an object each: a growable typed array, a table of
 * distinct values numbered in order of first appearance, and spans per row.
 */

type Typed = Int32Array | Float64Array | Uint16Array | Uint8Array;

/** Elements of one page of a column: past the first page, a column grows by whole pages. */
const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
/** Rows of a column's page (`Column.page`), and its power of two. */
export const COLUMN_PAGE = PAGE;
export const COLUMN_PAGE_BITS = PAGE_BITS;
const PAGE_MASK = PAGE - 1;
/** Values of a new column's first page. */
const FIRST_PAGE = 1024;

/**
 * A typed array that grows as values are pushed: its first page fourfold (copied) from 1,024 values
 * up to a page of 65,536, then a page at a time, never copied. Copying a long column on each
 * growth left the old copies, twice the column's size in all, for the collector to find; when it
 * was late, a large file's peak memory grew by that much. Growing the first page by half copied
 * each value about three times into fresh memory, which on this project's machines cost a twentieth
 * of a 50 MB `report`; a whole page from the start cost a one-line `report` 10 ms (a table has
 * some forty columns).
 */
export class Column<T extends Typed> {
  private readonly pages: T[];
  length = 0;

  constructor(private readonly make: new (length: number) => T) {
    this.pages = [new make(FIRST_PAGE)];
  }

  push(value: number): void {
    const page = this.length >>> PAGE_BITS;
    const at = this.length & PAGE_MASK;
    if (page === this.pages.length) this.pages.push(new this.make(PAGE));
    else if (page === 0 && at === (this.pages[0] as T).length) this.growFirst();
    (this.pages[page] as T)[at] = value;
    this.length++;
  }

  /** Pushes each value, `nullAs` for a null (one call per list rather than per value). */
  pushAll(values: readonly (number | null)[], nullAs: number): void {
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      this.push(v === null || v === undefined ? nullAs : v);
    }
  }

  get(i: number): number {
    return (this.pages[i >>> PAGE_BITS] as T)[i & PAGE_MASK] as number;
  }

  set(i: number, value: number): void {
    (this.pages[i >>> PAGE_BITS] as T)[i & PAGE_MASK] = value;
  }

  /** Page `p` itself (values `p × COLUMN_PAGE` on; the last page has room past `length`): valid until the next push. */
  page(p: number): T {
    return this.pages[p] as T;
  }

  /** Every page (value `i` is `pages[i >>> COLUMN_PAGE_BITS][i & (COLUMN_PAGE - 1)]`): valid until the next push. */
  pageList(): readonly T[] {
    return this.pages;
  }

  /**
   * The values as one typed array (rows past `length` being room), to read and write in place:
   * the first page itself while the column has one page, else a copy of its pages, which
   * `writeBack` puts back. Valid until the next push.
   */
  storage(): T {
    if (this.pages.length === 1) return this.pages[0] as T;
    const flat = new this.make(this.length);
    for (let p = 0; p < this.pages.length; p++) {
      const page = this.pages[p] as T;
      const from = p << PAGE_BITS;
      (flat as Typed).set((page as Typed).subarray(0, Math.min(PAGE, this.length - from)) as never, from);
    }
    return flat;
  }

  private growFirst(): void {
    const first = this.pages[0] as T;
    const next = new this.make(Math.min(PAGE, first.length * 4));
    (next as Typed).set(first as never);
    this.pages[0] = next;
  }

  /** Puts back what was written into `storage()`'s copy (nothing to do when it was the page itself). */
  writeBack(flat: Typed): void {
    if (this.pages.length === 1 && flat === this.pages[0]) return;
    for (let p = 0; p < this.pages.length; p++) {
      const from = p << PAGE_BITS;
      (this.pages[p] as Typed).set(flat.subarray(from, Math.min(from + PAGE, this.length)) as never);
    }
  }
}

/** Distinct values by key, each stored once and numbered 0, 1, 2 … in order of first appearance. */
export class Interner<T> {
  private readonly ids = new Map<string, number>();
  private readonly values: T[] = [];

  get size(): number {
    return this.values.length;
  }

  /** The number of `key`, storing `value` under it when the key is new. */
  id(key: string, value: T): number {
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    this.ids.set(key, this.values.length);
    this.values.push(value);
    return this.values.length - 1;
  }

  value(id: number): T {
    return this.values[id] as T;
  }
}

/**
 * A list of [start, end) spans per row, or none (null), without an object per span or per row:
 * every row's spans end to end in one column (start, end, start, end …).
 */
export class SpanColumn {
  private readonly starts = new Column(Int32Array);
  private readonly counts = new Column(Int32Array);
  private readonly offsets = new Column(Int32Array);

  /** `rows`: how many rows come before the first added (they have no spans). */
  constructor(rows: number) {
    for (let row = 0; row < rows; row++) this.add(null);
  }

  add(spans: readonly { start: number; end: number }[] | null): void {
    this.starts.push(spans ? this.offsets.length : -1);
    this.counts.push(spans ? spans.length : 0);
    if (spans) {
      for (const span of spans) {
        this.offsets.push(span.start);
        this.offsets.push(span.end);
      }
    }
  }

  /** A row's spans as new objects; null when it has none. */
  spans(row: number): { start: number; end: number }[] | null {
    if (row >= this.starts.length) return null;
    const start = this.starts.get(row);
    if (start === -1) return null;
    const count = this.counts.get(row);
    const out = new Array<{ start: number; end: number }>(count);
    for (let k = 0; k < count; k++) out[k] = { start: this.offsets.get(start + 2 * k), end: this.offsets.get(start + 2 * k + 1) };
    return out;
  }
}
