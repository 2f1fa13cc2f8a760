/**
 * Storage for many small values without an object each: a growable typed array, and a table of
 * distinct values numbered in order of first appearance.
 */

type Typed = Int32Array | Float64Array | Uint16Array | Uint8Array;

/** A typed array that grows by half as values are pushed. */
export class Column<T extends Typed> {
  private data: T;
  length = 0;

  constructor(private readonly make: new (length: number) => T, capacity = 1024) {
    this.data = new make(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }

  /** Pushes each value, `nullAs` for a null (one call per list rather than per value). */
  pushAll(values: readonly (number | null)[], nullAs: number): void {
    const n = values.length;
    while (this.length + n > this.data.length) this.grow();
    const data = this.data;
    let at = this.length;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      data[at++] = v === null || v === undefined ? nullAs : v;
    }
    this.length = at;
  }

  get(i: number): number {
    return this.data[i] as number;
  }

  set(i: number, value: number): void {
    this.data[i] = value;
  }

  /** The storage itself (values at 0 to `length`, then room), read in place: valid until the next push. */
  storage(): T {
    return this.data;
  }

  private grow(): void {
    const next = new this.make(Math.ceil(this.data.length * 1.5) + 16);
    (next as Typed).set(this.data as never);
    this.data = next;
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
