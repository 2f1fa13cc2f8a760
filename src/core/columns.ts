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

  get(i: number): number {
    return this.data[i] as number;
  }

  set(i: number, value: number): void {
    this.data[i] = value;
  }

  /** The values as one typed array, read in place: valid until the next push. */
  view(): T {
    return this.data.subarray(0, this.length) as T;
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
